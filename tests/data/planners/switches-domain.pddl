; Negative preconditions and goals, which the relaxation heuristics ignore (and stay admissible).
(define (domain switches)
  (:requirements :strips :typing :negative-preconditions)
  (:types light)
  (:predicates (on ?l - light))
  (:action turn-on :parameters (?l - light) :precondition (not (on ?l)) :effect (on ?l))
  (:action turn-off :parameters (?l - light) :precondition (on ?l) :effect (not (on ?l))))
