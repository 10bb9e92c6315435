; (:actions switchall)
(define (domain quantified)
  (:requirements :strips :typing)
  (:types lamp)
  (:predicates (lit ?l - lamp) (switchall))
  (:action switch-all
    :parameters ()
    :precondition (and (switchall))
    :effect (forall (?l - lamp) (lit ?l))))
