; Ferry (IPC-style STRIPS version, as used by AutoPlanBench).
; A ferry with room for one car sails between locations; cars board and debark at the ferry's location.
; Untyped: the unary predicates car and location mark the kinds of objects, and the static not-eq
; relation lists the pairs of distinct locations the ferry can sail between.

(define (domain ferry)
  (:predicates
    (not-eq ?x ?y)      ; static: ?x and ?y are different locations
    (car ?c)            ; static: ?c is a car
    (location ?l)       ; static: ?l is a location
    (at-ferry ?l)       ; the ferry is at ?l
    (at ?c ?l)          ; car ?c is parked at ?l
    (empty-ferry)       ; no car is on the ferry
    (on ?c))            ; car ?c is on the ferry

  (:action sail
    :parameters (?from ?to)
    :precondition (and (not-eq ?from ?to) (location ?from) (location ?to) (at-ferry ?from))
    :effect (and (at-ferry ?to)
                 (not (at-ferry ?from))))

  (:action board
    :parameters (?car ?loc)
    :precondition (and (car ?car) (location ?loc) (at ?car ?loc) (at-ferry ?loc) (empty-ferry))
    :effect (and (on ?car)
                 (not (at ?car ?loc)) (not (empty-ferry))))

  (:action debark
    :parameters (?car ?loc)
    :precondition (and (car ?car) (location ?loc) (on ?car) (at-ferry ?loc))
    :effect (and (at ?car ?loc) (empty-ferry)
                 (not (on ?car)))))
