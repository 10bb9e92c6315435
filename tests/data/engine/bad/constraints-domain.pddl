(define (domain uses-constraints)
  (:requirements :strips)
  (:predicates (p ?x))
  (:constraints (always (p a))))
