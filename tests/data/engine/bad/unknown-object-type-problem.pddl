(define (problem bad-object-type)
  (:domain small)
  (:objects a - block
            t - table)
  (:init (clear a))
  (:goal (clear a)))
