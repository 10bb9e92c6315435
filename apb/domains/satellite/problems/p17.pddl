(define (problem satellite-s1-i3-m3-d6-g4-s116)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 instrument_2 - instrument
    spectrograph_0 image_1 thermograph_2 - mode
    groundstation_0 groundstation_1 planet_2 planet_3 star_4 planet_5 - direction
  )
  (:init
    (supports instrument_0 spectrograph_0)
    (supports instrument_0 image_1)
    (calibration_target instrument_0 groundstation_1)
    (supports instrument_1 spectrograph_0)
    (supports instrument_1 thermograph_2)
    (calibration_target instrument_1 groundstation_0)
    (supports instrument_2 spectrograph_0)
    (supports instrument_2 image_1)
    (supports instrument_2 thermograph_2)
    (calibration_target instrument_2 groundstation_1)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (on_board instrument_2 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 star_4)
  )
  (:goal (and
    (pointing satellite_0 star_4)
    (have_image planet_2 image_1)
    (have_image star_4 image_1)
    (have_image star_4 thermograph_2)
  ))
)
