(define (problem satellite-s1-i1-m3-d4-g3-s2)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 - instrument
    image_0 thermograph_1 spectrograph_2 - mode
    groundstation_0 star_1 phenomenon_2 phenomenon_3 - direction
  )
  (:init
    (supports instrument_0 image_0)
    (supports instrument_0 thermograph_1)
    (supports instrument_0 spectrograph_2)
    (calibration_target instrument_0 groundstation_0)
    (on_board instrument_0 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_3)
  )
  (:goal (and
    (pointing satellite_0 phenomenon_2)
    (have_image phenomenon_2 spectrograph_2)
    (have_image phenomenon_3 spectrograph_2)
  ))
)
