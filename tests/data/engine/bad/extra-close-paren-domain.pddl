(define (domain broken)
  (:requirements :strips)
  (:predicates (p ?x) (q ?x)))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (q ?x))
)
