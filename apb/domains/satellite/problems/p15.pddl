(define (problem satellite-s1-i1-m3-d4-g3-s114)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 - instrument
    infrared_0 spectrograph_1 image_2 - mode
    groundstation_0 phenomenon_1 star_2 phenomenon_3 - direction
  )
  (:init
    (supports instrument_0 infrared_0)
    (supports instrument_0 spectrograph_1)
    (supports instrument_0 image_2)
    (calibration_target instrument_0 groundstation_0)
    (on_board instrument_0 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 star_2)
  )
  (:goal (and
    (pointing satellite_0 phenomenon_3)
    (have_image phenomenon_1 spectrograph_1)
    (have_image phenomenon_3 image_2)
  ))
)
