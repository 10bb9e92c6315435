; Derived predicates in two strata: power spreads along switched-on wires (recursive, stratum 0) and a room is
; dark without it (a negated derived predicate, stratum 1), which rules out incremental updates.
(define (domain grid)
  (:requirements :strips :typing :derived-predicates :negative-preconditions :existential-preconditions)
  (:types room)
  (:predicates (wire ?a ?b - room) (on ?a ?b - room) (source ?r - room) (powered ?r - room) (dark ?r - room)
               (lamp ?r - room))
  (:derived (powered ?r - room) (source ?r))
  (:derived (powered ?r - room) (exists (?q - room) (and (powered ?q) (on ?q ?r))))
  (:derived (dark ?r - room) (not (powered ?r)))
  (:action switch-on
    :parameters (?a ?b - room)
    :precondition (and (wire ?a ?b) (not (on ?a ?b)))
    :effect (on ?a ?b))
  (:action switch-off
    :parameters (?a ?b - room)
    :precondition (on ?a ?b)
    :effect (not (on ?a ?b)))
  (:action light
    :parameters (?r - room)
    :precondition (and (powered ?r) (not (lamp ?r)))
    :effect (lamp ?r))
  (:action move-source
    :parameters (?a ?b - room)
    :precondition (and (source ?a) (dark ?b))
    :effect (and (not (source ?a)) (source ?b))))
