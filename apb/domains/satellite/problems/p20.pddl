(define (problem satellite-s2-i3-m2-d5-g3-s119)
  (:domain satellite)
  (:objects
    satellite_0 satellite_1 - satellite
    instrument_0 instrument_1 instrument_2 - instrument
    spectrograph_0 image_1 - mode
    groundstation_0 star_1 planet_2 phenomenon_3 star_4 - direction
  )
  (:init
    (supports instrument_0 spectrograph_0)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 spectrograph_0)
    (supports instrument_1 image_1)
    (calibration_target instrument_1 groundstation_0)
    (supports instrument_2 spectrograph_0)
    (calibration_target instrument_2 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_2 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_3)
    (on_board instrument_1 satellite_1)
    (power_avail satellite_1)
    (pointing satellite_1 groundstation_0)
  )
  (:goal (and
    (have_image star_1 spectrograph_0)
    (have_image planet_2 image_1)
    (have_image star_4 image_1)
  ))
)
