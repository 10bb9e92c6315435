(define (domain broken)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block))
  (:action a
    :parameters (?x - block ?y - table)
    :precondition (on ?x ?y)
    :effect (not (on ?x ?y))))
