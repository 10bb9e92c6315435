(define (problem grippers-2-4-5-s19)
  (:domain gripper-strips)
  (:objects robot_0 robot_1 - robot
            left_0 right_0 left_1 right_1 - gripper
            room_a room_b room_c room_d - room
            ball_0 ball_1 ball_2 ball_3 ball_4 - object)
  (:init
    (at-robby robot_0 room_a)
    (free robot_0 left_0)
    (free robot_0 right_0)
    (at-robby robot_1 room_a)
    (free robot_1 left_1)
    (free robot_1 right_1)
    (at ball_0 room_b)
    (at ball_1 room_d)
    (at ball_2 room_c)
    (at ball_3 room_c)
    (at ball_4 room_b))
  (:goal (and
    (at ball_0 room_c)
    (at ball_1 room_a)
    (at ball_2 room_c)
    (at ball_3 room_d)
    (at ball_4 room_c))))
