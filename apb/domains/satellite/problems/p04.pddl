(define (problem satellite-s1-i2-m2-d5-g3-s3)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 - instrument
    infrared_0 spectrograph_1 - mode
    groundstation_0 phenomenon_1 planet_2 phenomenon_3 phenomenon_4 - direction
  )
  (:init
    (supports instrument_0 infrared_0)
    (supports instrument_0 spectrograph_1)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 spectrograph_1)
    (calibration_target instrument_1 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_1)
  )
  (:goal (and
    (have_image phenomenon_1 spectrograph_1)
    (have_image planet_2 spectrograph_1)
    (have_image phenomenon_3 spectrograph_1)
  ))
)
