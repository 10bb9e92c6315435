(define (problem satellite-s1-i2-m1-d4-g2-s6)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 - instrument
    image_0 - mode
    groundstation_0 star_1 star_2 phenomenon_3 - direction
  )
  (:init
    (supports instrument_0 image_0)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 image_0)
    (calibration_target instrument_1 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_3)
  )
  (:goal (and
    (have_image star_1 image_0)
    (have_image phenomenon_3 image_0)
  ))
)
