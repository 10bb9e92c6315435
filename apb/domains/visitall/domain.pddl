; Visitall (IPC 2011, as used by AutoPlanBench).
; A robot walks on a grid of places joined by the static connected relation; every place it
; enters becomes visited. The goal lists the places that must have been visited.

(define (domain grid-visit-all)
  (:requirements :typing)
  (:types place - object)

  (:predicates
    (connected ?x ?y - place)   ; static: the robot can step from ?x to ?y
    (at-robot ?x - place)       ; the robot stands on ?x
    (visited ?x - place))       ; the robot has been on ?x

  (:action move
    :parameters (?curpos ?nextpos - place)
    :precondition (and (at-robot ?curpos) (connected ?curpos ?nextpos))
    :effect (and (at-robot ?nextpos) (visited ?nextpos)
                 (not (at-robot ?curpos)))))
