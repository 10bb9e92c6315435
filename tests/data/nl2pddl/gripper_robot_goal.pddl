; the goal also wants the robot in room b, which the gold goal does not imply
(define (problem gripper-robot) (:domain gripper)
  (:objects rooma roomb ball1 ball2 ball3 left right)
  (:init (room rooma) (room roomb) (ball ball1) (ball ball2) (ball ball3) (gripper left) (gripper right) (at-robby rooma) (at ball1 rooma) (at ball2 rooma) (at ball3 rooma) (free left) (free right))
  (:goal (and (at ball1 roomb) (at ball2 roomb) (at ball3 roomb) (at-robby roomb))))
