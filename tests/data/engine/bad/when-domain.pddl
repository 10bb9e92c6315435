(define (domain uses-when)
  (:requirements :strips :conditional-effects)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (and (not (p ?x))
                 (when (q ?x) (p ?x)))))
