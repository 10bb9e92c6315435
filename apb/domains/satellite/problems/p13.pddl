(define (problem satellite-s1-i1-m1-d3-g2-s112)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 - instrument
    thermograph_0 - mode
    groundstation_0 planet_1 phenomenon_2 - direction
  )
  (:init
    (supports instrument_0 thermograph_0)
    (calibration_target instrument_0 groundstation_0)
    (on_board instrument_0 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 groundstation_0)
  )
  (:goal (and
    (have_image planet_1 thermograph_0)
    (have_image phenomenon_2 thermograph_0)
  ))
)
