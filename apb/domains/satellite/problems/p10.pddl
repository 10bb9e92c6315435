(define (problem satellite-s2-i5-m3-d3-g2-s9)
  (:domain satellite)
  (:objects
    satellite_0 satellite_1 - satellite
    instrument_0 instrument_1 instrument_2 instrument_3 instrument_4 - instrument
    thermograph_0 spectrograph_1 infrared_2 - mode
    groundstation_0 star_1 star_2 - direction
  )
  (:init
    (supports instrument_0 spectrograph_1)
    (supports instrument_0 infrared_2)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 thermograph_0)
    (supports instrument_1 infrared_2)
    (calibration_target instrument_1 groundstation_0)
    (supports instrument_2 spectrograph_1)
    (supports instrument_2 infrared_2)
    (calibration_target instrument_2 groundstation_0)
    (supports instrument_3 thermograph_0)
    (calibration_target instrument_3 groundstation_0)
    (supports instrument_4 thermograph_0)
    (supports instrument_4 infrared_2)
    (calibration_target instrument_4 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_2 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 groundstation_0)
    (on_board instrument_1 satellite_1)
    (on_board instrument_3 satellite_1)
    (on_board instrument_4 satellite_1)
    (power_avail satellite_1)
    (pointing satellite_1 star_1)
  )
  (:goal (and
    (have_image star_1 spectrograph_1)
    (have_image star_2 thermograph_0)
  ))
)
