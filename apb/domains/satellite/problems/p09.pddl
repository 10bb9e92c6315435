(define (problem satellite-s1-i3-m3-d7-g5-s8)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 instrument_2 - instrument
    infrared_0 thermograph_1 spectrograph_2 - mode
    groundstation_0 groundstation_1 star_2 phenomenon_3 star_4 star_5 star_6 - direction
  )
  (:init
    (supports instrument_0 infrared_0)
    (supports instrument_0 thermograph_1)
    (supports instrument_0 spectrograph_2)
    (calibration_target instrument_0 groundstation_1)
    (supports instrument_1 infrared_0)
    (supports instrument_1 spectrograph_2)
    (calibration_target instrument_1 groundstation_1)
    (supports instrument_2 infrared_0)
    (supports instrument_2 thermograph_1)
    (supports instrument_2 spectrograph_2)
    (calibration_target instrument_2 groundstation_1)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (on_board instrument_2 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 star_5)
  )
  (:goal (and
    (pointing satellite_0 phenomenon_3)
    (have_image star_2 thermograph_1)
    (have_image phenomenon_3 thermograph_1)
    (have_image star_5 thermograph_1)
    (have_image star_6 spectrograph_2)
  ))
)
