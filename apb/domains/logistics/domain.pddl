; Logistics (IPC 1998/2000, STRIPS version as used by AutoPlanBench).
; Packages travel between locations: trucks drive inside one city, airplanes fly between airports.
; Untyped: the kind of each object is given by the unary predicates OBJ, TRUCK, AIRPLANE, LOCATION, AIRPORT, CITY.
(define (domain logistics-strips)
  (:requirements :strips)

  (:predicates
    (OBJ ?obj) (TRUCK ?truck) (LOCATION ?loc) (AIRPLANE ?airplane) (CITY ?city) (AIRPORT ?airport)
    (at ?obj ?loc)            ; a package or vehicle is at a location
    (in ?obj1 ?obj2)          ; a package is inside a vehicle
    (in-city ?obj ?city))     ; a location belongs to a city

  ;; ---- trucks -------------------------------------------------------------------------------
  (:action load-truck
    :parameters (?obj ?truck ?loc)
    :precondition (and (OBJ ?obj) (TRUCK ?truck) (LOCATION ?loc) (at ?truck ?loc) (at ?obj ?loc))
    :effect (and (in ?obj ?truck) (not (at ?obj ?loc))))

  (:action unload-truck
    :parameters (?obj ?truck ?loc)
    :precondition (and (OBJ ?obj) (TRUCK ?truck) (LOCATION ?loc) (at ?truck ?loc) (in ?obj ?truck))
    :effect (and (at ?obj ?loc) (not (in ?obj ?truck))))

  (:action drive-truck
    :parameters (?truck ?loc-from ?loc-to ?city)
    :precondition (and (TRUCK ?truck) (LOCATION ?loc-from) (LOCATION ?loc-to) (CITY ?city)
                       (at ?truck ?loc-from) (in-city ?loc-from ?city) (in-city ?loc-to ?city))
    :effect (and (at ?truck ?loc-to) (not (at ?truck ?loc-from))))

  ;; ---- airplanes ----------------------------------------------------------------------------
  (:action load-airplane
    :parameters (?obj ?airplane ?loc)
    :precondition (and (OBJ ?obj) (AIRPLANE ?airplane) (LOCATION ?loc) (at ?obj ?loc) (at ?airplane ?loc))
    :effect (and (in ?obj ?airplane) (not (at ?obj ?loc))))

  (:action unload-airplane
    :parameters (?obj ?airplane ?loc)
    :precondition (and (OBJ ?obj) (AIRPLANE ?airplane) (LOCATION ?loc) (in ?obj ?airplane) (at ?airplane ?loc))
    :effect (and (at ?obj ?loc) (not (in ?obj ?airplane))))

  (:action fly-airplane
    :parameters (?airplane ?loc-from ?loc-to)
    :precondition (and (AIRPLANE ?airplane) (AIRPORT ?loc-from) (AIRPORT ?loc-to) (at ?airplane ?loc-from))
    :effect (and (at ?airplane ?loc-to) (not (at ?airplane ?loc-from))))
)
