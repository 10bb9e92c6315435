; Every feature the engine supports, for the PDDL writer round trip and the Fast Downward backend:
; a type hierarchy, `either`, constants, equality, negative preconditions and goals, a parameterless action.
(define (domain features)
  (:requirements :strips :typing :negative-preconditions :equality)
  (:types vehicle place - object truck bike - vehicle depot)
  (:constants home - place)
  (:predicates (at ?v - vehicle ?p - place) (linked ?a ?b - place) (parked ?x - (either truck depot)) (ready))
  (:action start
    :parameters ()
    :effect (ready))
  (:action drive
    :parameters (?v - vehicle ?from ?to - place)
    :precondition (and (ready) (at ?v ?from) (linked ?from ?to) (not (= ?from ?to)))
    :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action park
    :parameters (?t - truck)
    :precondition (and (at ?t home) (not (parked ?t)))
    :effect (parked ?t)))
