(define (problem satellite-s1-i2-m1-d4-g2-s118)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 - instrument
    infrared_0 - mode
    groundstation_0 planet_1 star_2 planet_3 - direction
  )
  (:init
    (supports instrument_0 infrared_0)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 infrared_0)
    (calibration_target instrument_1 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 planet_1)
  )
  (:goal (and
    (have_image planet_1 infrared_0)
    (have_image planet_3 infrared_0)
  ))
)
