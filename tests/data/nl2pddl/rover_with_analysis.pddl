; the goal adds the soil analysis the communication needs (implied: it is never lost): correct
(define (problem rover-soil2) (:domain rover-single)
  (:objects w1 w2 w3 - waypoint store1 - store cam1 - camera colour - mode lander1 - lander obj1 - objective)
  (:init (at-rover w1) (at-lander lander1 w3) (can-traverse w1 w2) (can-traverse w2 w1) (can-traverse w2 w3) (can-traverse w3 w2) (visible w1 w2) (visible w2 w1) (visible w2 w3) (visible w3 w2) (empty store1) (at-soil-sample w1) (at-rock-sample w2) (calibration-target cam1 obj1) (supports cam1 colour) (visible-from obj1 w2))
  (:goal (and (have-soil-analysis w1) (communicated-soil-data w1))))
