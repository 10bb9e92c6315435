; Gripper with several robots (IPC 1998 Gripper, multi-robot variant as used by AutoPlanBench).
; Robots with two grippers each move between rooms and carry balls, at most one per gripper.
; The balls' type is literally named `object`, as in the reference domain, so `?obj - object`
; ranges over all objects; only balls can ever be `at` a room, so only balls are picked or dropped.

(define (domain gripper-strips)
  (:requirements :strips :typing)
  (:types room object robot gripper)

  (:predicates
    (at-robby ?r - robot ?x - room)                ; robot ?r is in room ?x
    (at ?o - object ?x - room)                     ; ball ?o lies in room ?x
    (free ?r - robot ?g - gripper)                 ; gripper ?g of robot ?r holds nothing
    (carry ?r - robot ?o - object ?g - gripper))   ; robot ?r holds ball ?o in gripper ?g

  (:action move
    :parameters (?r - robot ?from ?to - room)
    :precondition (at-robby ?r ?from)
    :effect (and (at-robby ?r ?to)
                 (not (at-robby ?r ?from))))

  (:action pick
    :parameters (?r - robot ?obj - object ?room - room ?g - gripper)
    :precondition (and (at ?obj ?room) (at-robby ?r ?room) (free ?r ?g))
    :effect (and (carry ?r ?obj ?g)
                 (not (at ?obj ?room)) (not (free ?r ?g))))

  (:action drop
    :parameters (?r - robot ?obj - object ?room - room ?g - gripper)
    :precondition (and (carry ?r ?obj ?g) (at-robby ?r ?room))
    :effect (and (at ?obj ?room) (free ?r ?g)
                 (not (carry ?r ?obj ?g)))))
