(define (problem grippers-1-2-5-s20)
  (:domain gripper-strips)
  (:objects robot_0 - robot
            left_0 right_0 - gripper
            room_a room_b - room
            ball_0 ball_1 ball_2 ball_3 ball_4 - object)
  (:init
    (at-robby robot_0 room_a)
    (free robot_0 left_0)
    (free robot_0 right_0)
    (at ball_0 room_b)
    (at ball_1 room_a)
    (at ball_2 room_b)
    (at ball_3 room_a)
    (at ball_4 room_a))
  (:goal (and
    (at ball_0 room_b)
    (at ball_1 room_b)
    (at ball_2 room_a)
    (at ball_3 room_a)
    (at ball_4 room_a))))
