(define (problem no-goal)
  (:domain small)
  (:objects a b - block)
  (:init (on a b) (clear a)))
