; Floortile (IPC 2011, unit-cost version as used by AutoPlanBench).
; Robots stand on floor tiles and paint the tile directly above or below them with the colour they hold;
; they may switch to any available colour. A painted tile is no longer clear: no robot can stand on it,
; so the order of painting matters and a robot can wall itself in.
; (up ?a ?b) means tile ?a lies directly above tile ?b; likewise down, right and left.

(define (domain floor-tile)
  (:requirements :typing)
  (:types robot tile color - object)

  (:predicates
    (robot-at ?r - robot ?x - tile)     ; robot ?r stands on tile ?x
    (up ?x - tile ?y - tile)            ; ?x is directly above ?y
    (down ?x - tile ?y - tile)          ; ?x is directly below ?y
    (right ?x - tile ?y - tile)         ; ?x is directly right of ?y
    (left ?x - tile ?y - tile)          ; ?x is directly left of ?y
    (clear ?x - tile)                   ; nobody stands on ?x and it is unpainted
    (painted ?x - tile ?c - color)      ; ?x is painted with colour ?c
    (robot-has ?r - robot ?c - color)   ; ?r holds paint of colour ?c
    (available-color ?c - color)        ; paint of colour ?c can be fetched
    (free-color ?r - robot))            ; unused, kept from the IPC domain

  (:action change-color
    :parameters (?r - robot ?c - color ?c2 - color)
    :precondition (and (robot-has ?r ?c) (available-color ?c2))
    :effect (and (robot-has ?r ?c2) (not (robot-has ?r ?c))))

  ; paint the tile ?y above the robot's tile ?x
  (:action paint-up
    :parameters (?r - robot ?y - tile ?x - tile ?c - color)
    :precondition (and (robot-has ?r ?c) (robot-at ?r ?x) (up ?y ?x) (clear ?y))
    :effect (and (painted ?y ?c) (not (clear ?y))))

  ; paint the tile ?y below the robot's tile ?x
  (:action paint-down
    :parameters (?r - robot ?y - tile ?x - tile ?c - color)
    :precondition (and (robot-has ?r ?c) (robot-at ?r ?x) (down ?y ?x) (clear ?y))
    :effect (and (painted ?y ?c) (not (clear ?y))))

  ; the four moves: from ?x to the clear neighbouring tile ?y
  (:action up
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (up ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (clear ?x)
                 (not (robot-at ?r ?x)) (not (clear ?y))))

  (:action down
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (down ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (clear ?x)
                 (not (robot-at ?r ?x)) (not (clear ?y))))

  (:action right
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (right ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (clear ?x)
                 (not (robot-at ?r ?x)) (not (clear ?y))))

  (:action left
    :parameters (?r - robot ?x - tile ?y - tile)
    :precondition (and (robot-at ?r ?x) (left ?y ?x) (clear ?y))
    :effect (and (robot-at ?r ?y) (clear ?x)
                 (not (robot-at ?r ?x)) (not (clear ?y)))))
