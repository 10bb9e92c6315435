(define (domain sloppy)
  (:requirements :strips)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x)
    :precondition (not (p ?x))
    :effect (p ?x)))
