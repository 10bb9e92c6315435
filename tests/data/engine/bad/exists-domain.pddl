(define (domain uses-exists)
  (:requirements :strips :existential-preconditions)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x)
    :precondition (and (p ?x)
                       (exists (?y) (q ?y)))
    :effect (not (p ?x))))
