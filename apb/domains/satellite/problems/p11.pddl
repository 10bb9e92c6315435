(define (problem satellite-s1-i2-m2-d6-g4-s10)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 - instrument
    image_0 infrared_1 - mode
    groundstation_0 groundstation_1 star_2 planet_3 planet_4 planet_5 - direction
  )
  (:init
    (supports instrument_0 image_0)
    (supports instrument_0 infrared_1)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 infrared_1)
    (calibration_target instrument_1 groundstation_1)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 groundstation_1)
  )
  (:goal (and
    (pointing satellite_0 planet_5)
    (have_image planet_3 infrared_1)
    (have_image planet_4 infrared_1)
    (have_image planet_5 image_0)
  ))
)
