; the goal adds the free grippers and types it implies: correct
(define (problem gripper-free) (:domain gripper)
  (:objects rooma roomb ball1 ball2 ball3 left right)
  (:init (room rooma) (room roomb) (ball ball1) (ball ball2) (ball ball3) (gripper left) (gripper right) (at-robby rooma) (at ball1 rooma) (at ball2 rooma) (at ball3 rooma) (free left) (free right))
  (:goal (and (at ball1 roomb) (at ball2 roomb) (at ball3 roomb) (free left) (free right) (ball ball1) (room roomb))))
