(define (problem satellite-s1-i2-m2-d5-g3-s115)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 - instrument
    spectrograph_0 image_1 - mode
    groundstation_0 planet_1 phenomenon_2 planet_3 phenomenon_4 - direction
  )
  (:init
    (supports instrument_0 spectrograph_0)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 spectrograph_0)
    (supports instrument_1 image_1)
    (calibration_target instrument_1 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_4)
  )
  (:goal (and
    (have_image planet_1 image_1)
    (have_image phenomenon_2 image_1)
    (have_image phenomenon_4 spectrograph_0)
  ))
)
