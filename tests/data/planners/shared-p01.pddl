(define (problem shared-1)
  (:domain shared)
  (:init)
  (:goal (and (a) (b))))
