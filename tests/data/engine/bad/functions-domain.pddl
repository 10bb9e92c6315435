(define (domain uses-functions)
  (:requirements :strips)
  (:predicates (p ?x))
  (:functions (total-cost))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (not (p ?x))))
