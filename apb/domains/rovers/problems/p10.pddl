(define (problem rovers-r1-w3-c1-o1-g011-s9)
  (:domain Rover)
  (:objects
    lander_0 - lander
    mode_colour mode_high_res mode_low_res - mode
    rover_0 - rover
    rover_0_store - store
    waypoint_0 waypoint_1 waypoint_2 - waypoint
    camera_0 - camera
    objective_0 - objective
  )
  (:init
    (visible waypoint_0 waypoint_1)
    (visible waypoint_1 waypoint_0)
    (visible waypoint_0 waypoint_2)
    (visible waypoint_2 waypoint_0)
    (visible waypoint_1 waypoint_2)
    (visible waypoint_2 waypoint_1)
    (at_rock_sample waypoint_0)
    (at_soil_sample waypoint_1)
    (at_rock_sample waypoint_1)
    (at_lander lander_0 waypoint_2)
    (channel_free lander_0)
    (at rover_0 waypoint_0)
    (available rover_0)
    (store_of rover_0_store rover_0)
    (empty rover_0_store)
    (equipped_for_rock_analysis rover_0)
    (equipped_for_imaging rover_0)
    (can_traverse rover_0 waypoint_0 waypoint_1)
    (can_traverse rover_0 waypoint_1 waypoint_0)
    (can_traverse rover_0 waypoint_1 waypoint_2)
    (can_traverse rover_0 waypoint_2 waypoint_1)
    (on_board camera_0 rover_0)
    (calibration_target camera_0 objective_0)
    (supports camera_0 mode_high_res)
    (supports camera_0 mode_low_res)
    (visible_from objective_0 waypoint_0)
  )
  (:goal (and
    (communicated_rock_data waypoint_0)
    (communicated_image_data objective_0 mode_high_res)
  ))
)
