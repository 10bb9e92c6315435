; the rock data instead: solvable, wrong
(define (problem rover-rock) (:domain rover-single)
  (:objects w1 w2 w3 - waypoint cam1 - camera colour - mode obj1 - objective)
  (:init (at_rover w1) (at_lander w3) (can_traverse w1 w2) (can_traverse w2 w1) (can_traverse w2 w3) (can_traverse w3 w2) (visible w1 w2) (visible w2 w1) (visible w2 w3) (visible w3 w2) (available) (channel_free) (at_soil_sample w1) (at_rock_sample w2) (supports cam1 colour) (visible_from obj1 w2))
  (:goal (and (communicated_rock_data w2))))
