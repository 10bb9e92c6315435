; Lamps with its action predicates named by a real (:actions ...) section rather than a comment.
(define (domain lampsdecl)
  (:requirements :strips :typing :negative-preconditions)
  (:types lamp room)
  (:predicates
    (lit ?l - lamp)
    (inroom ?l - lamp ?r - room)
    (bright ?r - room)
    (switchon ?l - lamp)
  )
  (:actions switchon)
  (:action switch-on
    :parameters (?l - lamp ?r - room)
    :precondition (and (and (inroom ?l ?r) (switchon ?l)) (not (lit ?l)))
    :effect (and (lit ?l) (bright ?r)))
)
