(define (domain uses-increase)
  (:requirements :strips)
  (:predicates (p ?x))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (and (not (p ?x))
                 (increase (total-cost) 1))))
