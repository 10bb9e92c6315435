(define (problem satellite-s2-i3-m2-d6-g4-s11)
  (:domain satellite)
  (:objects
    satellite_0 satellite_1 - satellite
    instrument_0 instrument_1 instrument_2 - instrument
    thermograph_0 spectrograph_1 - mode
    groundstation_0 groundstation_1 phenomenon_2 phenomenon_3 star_4 star_5 - direction
  )
  (:init
    (supports instrument_0 spectrograph_1)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 thermograph_0)
    (supports instrument_1 spectrograph_1)
    (calibration_target instrument_1 groundstation_1)
    (supports instrument_2 thermograph_0)
    (supports instrument_2 spectrograph_1)
    (calibration_target instrument_2 groundstation_1)
    (on_board instrument_0 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 star_5)
    (on_board instrument_1 satellite_1)
    (on_board instrument_2 satellite_1)
    (power_avail satellite_1)
    (pointing satellite_1 star_5)
  )
  (:goal (and
    (pointing satellite_0 groundstation_0)
    (have_image phenomenon_2 thermograph_0)
    (have_image phenomenon_3 thermograph_0)
    (have_image star_4 thermograph_0)
  ))
)
