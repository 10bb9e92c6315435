; Lamps in PDDLGym's conventions (written for apb's importer tests, not taken from PDDLGym):
; action predicates declared among the predicates, named by a commented (:actions ...) line as PDDLGym
; files do, used as a precondition literal of each operator and listed in the problems' initial facts.
(define (domain typo)
  (:requirements :strips :typing :negative-preconditions)
  (:types lamp room)
  (:predicates
    (lit ?l - lamp)
    (inroom ?l - lamp ?r - room)
    (bright ?r - room)
    (switchon ?l - lamp)
    (switchoff ?l - lamp)
  )

  ; (:actions switchon switchoff)

  (:action switch-on
    :parameters (?l - lamp ?r - room)
    :precondition (and (switchon ?l)
                       (inroom ?l ?r)
                       (not (lit ?l)))
    :effect (and (lit ?l) (bright ?r)))

  (:action switch-off
    :parameters (?l - lamp)
    :precondition (switchoff ?l)
    :effect (not (lit ?l)))
)
