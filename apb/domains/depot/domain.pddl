; Depot (IPC 2002, STRIPS typed version as used by AutoPlanBench).
; Hoists stack crates on pallets or other crates at depots and distributors; trucks carry crates between places.
(define (domain depots)
  (:requirements :strips :typing)

  (:types
    place locatable - object
    depot distributor - place
    truck hoist surface - locatable
    pallet crate - surface)

  (:predicates
    (at ?x - locatable ?y - place)      ; a truck, hoist or surface stands at a place
    (on ?x - crate ?y - surface)        ; a crate sits on a pallet or on another crate
    (in ?x - crate ?y - truck)          ; a crate is loaded in a truck
    (lifting ?x - hoist ?y - crate)     ; a hoist holds a crate
    (available ?x - hoist)              ; a hoist holds nothing
    (clear ?x - surface))               ; nothing sits on a surface

  (:action drive
    :parameters (?x - truck ?y - place ?z - place)
    :precondition (at ?x ?y)
    :effect (and (at ?x ?z) (not (at ?x ?y))))

  ;; a hoist takes the top crate ?y off surface ?z
  (:action lift
    :parameters (?x - hoist ?y - crate ?z - surface ?p - place)
    :precondition (and (at ?x ?p) (available ?x) (at ?y ?p) (on ?y ?z) (clear ?y))
    :effect (and (lifting ?x ?y) (clear ?z)
                 (not (at ?y ?p)) (not (clear ?y)) (not (available ?x)) (not (on ?y ?z))))

  ;; a hoist puts the crate it holds on the clear surface ?z
  (:action drop
    :parameters (?x - hoist ?y - crate ?z - surface ?p - place)
    :precondition (and (at ?x ?p) (at ?z ?p) (clear ?z) (lifting ?x ?y))
    :effect (and (available ?x) (at ?y ?p) (clear ?y) (on ?y ?z)
                 (not (lifting ?x ?y)) (not (clear ?z))))

  (:action load
    :parameters (?x - hoist ?y - crate ?z - truck ?p - place)
    :precondition (and (at ?x ?p) (at ?z ?p) (lifting ?x ?y))
    :effect (and (in ?y ?z) (available ?x) (not (lifting ?x ?y))))

  (:action unload
    :parameters (?x - hoist ?y - crate ?z - truck ?p - place)
    :precondition (and (at ?x ?p) (at ?z ?p) (available ?x) (in ?y ?z))
    :effect (and (lifting ?x ?y) (not (in ?y ?z)) (not (available ?x))))
)
