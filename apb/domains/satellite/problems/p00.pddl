(define (problem satellite-s1-i2-m1-d3-g1-s0)
  (:domain satellite)
  (:objects
    satellite_0 - satellite
    instrument_0 instrument_1 - instrument
    thermograph_0 - mode
    groundstation_0 phenomenon_1 planet_2 - direction
  )
  (:init
    (supports instrument_0 thermograph_0)
    (calibration_target instrument_0 groundstation_0)
    (supports instrument_1 thermograph_0)
    (calibration_target instrument_1 groundstation_0)
    (on_board instrument_0 satellite_0)
    (on_board instrument_1 satellite_0)
    (power_avail satellite_0)
    (pointing satellite_0 phenomenon_1)
  )
  (:goal (and
    (have_image phenomenon_1 thermograph_0)
  ))
)
