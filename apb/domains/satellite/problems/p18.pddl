(define (problem satellite-s2-i4-m2-d4-g3-s117)
  (:domain satellite)
  (:objects
    satellite_0 satellite_1 - satellite
    instrument_0 instrument_1 instrument_2 instrument_3 - instrument
    infrared_0 image_1 - mode
    groundstation_0 planet_1 star_2 phenomenon_3 - direction
  )
  (:init
    (supports instrument_0 infrared_0)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 infrared_0)
    (supports instrument_1 image_1)
    (calibration_target instrument_1 groundstation_0)
    (supports instrument_2 infrared_0)
    (supports instrument_2 image_1)
    (calibration_target instrument_2 groundstation_0)
    (supports instrument_3 image_1)
    (calibration_target instrument_3 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_3 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_3)
    (on_board instrument_1 satellite_1)
    (on_board instrument_2 satellite_1)
    (power_avail satellite_1)
    (pointing satellite_1 phenomenon_3)
  )
  (:goal (and
    (pointing satellite_0 star_2)
    (have_image planet_1 image_1)
    (have_image star_2 image_1)
  ))
)
