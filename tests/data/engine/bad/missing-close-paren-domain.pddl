; the final ')' of the define is missing
(define (domain broken)
  (:requirements :strips)
  (:predicates (p ?x))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (not (p ?x)))
