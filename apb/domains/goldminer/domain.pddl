; Gold Miner (IPC 2008 learning track, typed version as used by AutoPlanBench).
; A robot on a grid of locations must end up holding the gold. Rock blocks the way: a bomb (unlimited at the
; bomb depot) clears soft rock on an adjacent location; the laser clears any rock there but also destroys gold.
; The robot carries one thing at a time; only the laser can be put down again.

(define (domain gold-miner-typed)
  (:requirements :typing)
  (:types LOC)

  (:predicates
    (robot-at ?x - LOC)           ; the robot is at ?x
    (bomb-at ?x - LOC)            ; bombs can be picked up at ?x
    (laser-at ?x - LOC)           ; the laser lies at ?x
    (soft-rock-at ?x - LOC)       ; ?x is filled with soft rock
    (hard-rock-at ?x - LOC)       ; ?x is filled with hard rock
    (gold-at ?x - LOC)            ; the gold is at ?x
    (arm-empty)                   ; the robot carries nothing
    (holds-bomb)                  ; the robot carries a bomb
    (holds-laser)                 ; the robot carries the laser
    (holds-gold)                  ; the robot carries the gold
    (clear ?x - LOC)              ; ?x is free of rock
    (connected ?x - LOC ?y - LOC)) ; ?y is next to ?x

  (:action move
    :parameters (?x - LOC ?y - LOC)
    :precondition (and (robot-at ?x) (connected ?x ?y) (clear ?y))
    :effect (and (robot-at ?y) (not (robot-at ?x))))

  (:action pickup-laser
    :parameters (?x - LOC)
    :precondition (and (robot-at ?x) (laser-at ?x) (arm-empty))
    :effect (and (holds-laser) (not (arm-empty)) (not (laser-at ?x))))

  ; the bomb depot is never used up
  (:action pickup-bomb
    :parameters (?x - LOC)
    :precondition (and (robot-at ?x) (bomb-at ?x) (arm-empty))
    :effect (and (holds-bomb) (not (arm-empty))))

  (:action putdown-laser
    :parameters (?x - LOC)
    :precondition (and (robot-at ?x) (holds-laser))
    :effect (and (arm-empty) (laser-at ?x) (not (holds-laser))))

  ; blow up the soft rock on the neighbouring location ?y
  (:action detonate-bomb
    :parameters (?x - LOC ?y - LOC)
    :precondition (and (robot-at ?x) (holds-bomb) (connected ?x ?y) (soft-rock-at ?y))
    :effect (and (arm-empty) (clear ?y)
                 (not (holds-bomb)) (not (soft-rock-at ?y))))

  ; burn away whatever is on the neighbouring location ?y, gold included
  (:action fire-laser
    :parameters (?x - LOC ?y - LOC)
    :precondition (and (robot-at ?x) (holds-laser) (connected ?x ?y))
    :effect (and (clear ?y)
                 (not (soft-rock-at ?y)) (not (gold-at ?y)) (not (hard-rock-at ?y))))

  (:action pick-gold
    :parameters (?x - LOC)
    :precondition (and (robot-at ?x) (arm-empty) (gold-at ?x))
    :effect (and (holds-gold) (not (arm-empty)))))
