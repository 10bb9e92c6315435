; a valid typed domain that the bad problems below refer to
(define (domain small)
  (:requirements :strips :typing)
  (:types block)
  (:predicates (on ?x - block ?y - block) (clear ?x - block))
  (:action take
    :parameters (?x - block ?y - block)
    :precondition (and (on ?x ?y) (clear ?x))
    :effect (and (not (on ?x ?y)) (clear ?y))))
