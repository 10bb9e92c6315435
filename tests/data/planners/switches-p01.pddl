; Optimal plan: turn-on l1, turn-off l2 (2). LM-cut = h_max = 1: the negative goal is ignored.
(define (problem switches-1)
  (:domain switches)
  (:objects l1 l2 l3 - light)
  (:init (on l2) (on l3))
  (:goal (and (on l1) (not (on l2)) (on l3))))
