; Lamps: a tiny domain written for apb's dataset importer tests. Switch a lamp on to light its room.
(define (domain lamps)
  (:requirements :strips :typing :negative-preconditions)
  (:types lamp room)
  (:predicates
    (lit ?l - lamp)
    (inroom ?l - lamp ?r - room)
    (bright ?r - room))
  (:action switch-on
    :parameters (?l - lamp ?r - room)
    :precondition (and (inroom ?l ?r) (not (lit ?l)))
    :effect (and (lit ?l) (bright ?r)))
  (:action switch-off
    :parameters (?l - lamp)
    :precondition ()
    :effect (not (lit ?l))))
