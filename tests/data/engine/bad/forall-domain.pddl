(define (domain uses-forall)
  (:requirements :adl)
  (:predicates (p ?x) (q ?x))
  (:action a
    :parameters (?x)
    :precondition (p ?x)
    :effect (forall (?y) (not (q ?y)))))
