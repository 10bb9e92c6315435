; Grid (IPC 1998, as used by AutoPlanBench).
; A robot moves between connected open places. Some places are locked; a key whose shape matches a lock opens it
; from a neighbouring place. The robot holds one key at a time and can swap the held key for one lying where it
; stands. Untyped: the unary predicates place, key and shape give the kinds of objects.

(define (domain grid)
  (:requirements :strips)

  (:predicates
    (conn ?x ?y)           ; the robot can go from place ?x to place ?y
    (key-shape ?k ?s)      ; key ?k has shape ?s
    (lock-shape ?x ?s)     ; the lock of place ?x has shape ?s
    (at ?r ?x)             ; key ?r lies at place ?x
    (at-robot ?x)          ; the robot is at place ?x
    (place ?p)             ; ?p is a place
    (key ?k)               ; ?k is a key
    (shape ?s)             ; ?s is a shape
    (locked ?x)            ; place ?x is locked
    (holding ?k)           ; the robot holds key ?k
    (open ?x)              ; place ?x is open
    (arm-empty))           ; the robot holds no key

  ; open the locked place ?lockpos next to the robot with a held key of the lock's shape
  (:action unlock
    :parameters (?curpos ?lockpos ?key ?shape)
    :precondition (and (place ?curpos) (place ?lockpos) (key ?key) (shape ?shape)
                       (conn ?curpos ?lockpos) (key-shape ?key ?shape) (lock-shape ?lockpos ?shape)
                       (at-robot ?curpos) (locked ?lockpos) (holding ?key))
    :effect (and (open ?lockpos) (not (locked ?lockpos))))

  (:action move
    :parameters (?curpos ?nextpos)
    :precondition (and (place ?curpos) (place ?nextpos)
                       (at-robot ?curpos) (conn ?curpos ?nextpos) (open ?nextpos))
    :effect (and (at-robot ?nextpos) (not (at-robot ?curpos))))

  (:action pickup
    :parameters (?curpos ?key)
    :precondition (and (place ?curpos) (key ?key)
                       (at-robot ?curpos) (at ?key ?curpos) (arm-empty))
    :effect (and (holding ?key) (not (at ?key ?curpos)) (not (arm-empty))))

  ; put down the held key ?oldkey and take ?newkey lying at the same place
  (:action pickup-and-loose
    :parameters (?curpos ?newkey ?oldkey)
    :precondition (and (place ?curpos) (key ?newkey) (key ?oldkey)
                       (at-robot ?curpos) (holding ?oldkey) (at ?newkey ?curpos))
    :effect (and (holding ?newkey) (at ?oldkey ?curpos)
                 (not (holding ?oldkey)) (not (at ?newkey ?curpos))))

  (:action putdown
    :parameters (?curpos ?key)
    :precondition (and (place ?curpos) (key ?key)
                       (at-robot ?curpos) (holding ?key))
    :effect (and (arm-empty) (at ?key ?curpos) (not (holding ?key)))))
