(define (domain broken)
  (:requirements :strips)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x)
    :precondition (and (p ?x)
                       (r ?x))
    :effect (q ?x)))
