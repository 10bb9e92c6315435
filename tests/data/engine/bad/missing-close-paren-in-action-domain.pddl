; the precondition's (and ...) of action a is not closed, so everything after it nests inside action a
(define (domain broken)
  (:requirements :strips)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x)
    :precondition (and (p ?x)
    :effect (q ?x))
  (:action b
    :parameters (?x)
    :precondition (q ?x)
    :effect (p ?x)))
