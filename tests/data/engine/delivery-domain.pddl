; Typing with a hierarchy, (either ...), constants and static facts.
(define (domain delivery)
  (:requirements :strips :typing :equality)
  (:types
    vehicle place parcel - object
    truck van - vehicle
    airport - place
    tool)
  (:constants depot - place hq - airport)
  (:predicates
    (at ?v - vehicle ?p - place)
    (road ?from ?to - place)
    (parcel-at ?x - (either parcel tool) ?p - place)
    (carries ?v - vehicle ?x - (either parcel tool))
    (delivered ?x - parcel))

  (:action drive
    :parameters (?v - vehicle ?from ?to - place)
    :precondition (and (at ?v ?from) (road ?from ?to) (not (= ?from ?to)))
    :effect (and (not (at ?v ?from)) (at ?v ?to)))

  (:action load
    :parameters (?x - (either parcel tool) ?v - truck ?p - place)
    :precondition (and (at ?v ?p) (parcel-at ?x ?p))
    :effect (and (not (parcel-at ?x ?p)) (carries ?v ?x)))

  (:action unload
    :parameters (?x - (either parcel tool) ?v - vehicle ?p - place)
    :precondition (and (at ?v ?p) (carries ?v ?x))
    :effect (and (not (carries ?v ?x)) (parcel-at ?x ?p)))

  ; only at the depot constant, only parcels
  (:action hand-over
    :parameters (?x - parcel ?v - vehicle)
    :precondition (and (at ?v depot) (carries ?v ?x))
    :effect (and (not (carries ?v ?x)) (delivered ?x)))

  (:action fly
    :parameters (?v - van ?to - airport)
    :precondition (at ?v hq)
    :effect (and (not (at ?v hq)) (at ?v ?to))))
