; Rovers with a single rover, as in Planetarium's rover-single variant: the rover is implicit, so no predicate takes
; a rover argument. It drives between waypoints, samples soil and rock into its one store, calibrates its cameras,
; takes images and sends data to a lander visible from where it stands. Typed STRIPS, written for apb from the
; published IPC 2002 Rovers semantics.
(define (domain rover-single)
  (:requirements :strips :typing)
  (:types waypoint store camera mode lander objective)
  (:predicates
    (at-rover ?y - waypoint)
    (at-lander ?x - lander ?y - waypoint)
    (can-traverse ?x - waypoint ?y - waypoint)
    (empty ?s - store)
    (full ?s - store)
    (have-rock-analysis ?w - waypoint)
    (have-soil-analysis ?w - waypoint)
    (calibrated ?c - camera)
    (supports ?c - camera ?m - mode)
    (visible ?w - waypoint ?p - waypoint)
    (have-image ?o - objective ?m - mode)
    (communicated-soil-data ?w - waypoint)
    (communicated-rock-data ?w - waypoint)
    (communicated-image-data ?o - objective ?m - mode)
    (at-soil-sample ?w - waypoint)
    (at-rock-sample ?w - waypoint)
    (visible-from ?o - objective ?w - waypoint)
    (calibration-target ?i - camera ?o - objective))

  (:action navigate
    :parameters (?y - waypoint ?z - waypoint)
    :precondition (and (can-traverse ?y ?z) (at-rover ?y) (visible ?y ?z))
    :effect (and (at-rover ?z) (not (at-rover ?y))))

  (:action sample-soil
    :parameters (?s - store ?p - waypoint)
    :precondition (and (at-rover ?p) (at-soil-sample ?p) (empty ?s))
    :effect (and (full ?s) (have-soil-analysis ?p) (not (empty ?s)) (not (at-soil-sample ?p))))

  (:action sample-rock
    :parameters (?s - store ?p - waypoint)
    :precondition (and (at-rover ?p) (at-rock-sample ?p) (empty ?s))
    :effect (and (full ?s) (have-rock-analysis ?p) (not (empty ?s)) (not (at-rock-sample ?p))))

  (:action drop
    :parameters (?s - store)
    :precondition (full ?s)
    :effect (and (empty ?s) (not (full ?s))))

  (:action calibrate
    :parameters (?i - camera ?t - objective ?w - waypoint)
    :precondition (and (calibration-target ?i ?t) (at-rover ?w) (visible-from ?t ?w))
    :effect (calibrated ?i))

  (:action take-image
    :parameters (?p - waypoint ?o - objective ?i - camera ?m - mode)
    :precondition (and (calibrated ?i) (supports ?i ?m) (visible-from ?o ?p) (at-rover ?p))
    :effect (and (have-image ?o ?m) (not (calibrated ?i))))

  (:action communicate-soil-data
    :parameters (?l - lander ?p - waypoint ?x - waypoint ?y - waypoint)
    :precondition (and (at-rover ?x) (at-lander ?l ?y) (have-soil-analysis ?p) (visible ?x ?y))
    :effect (communicated-soil-data ?p))

  (:action communicate-rock-data
    :parameters (?l - lander ?p - waypoint ?x - waypoint ?y - waypoint)
    :precondition (and (at-rover ?x) (at-lander ?l ?y) (have-rock-analysis ?p) (visible ?x ?y))
    :effect (communicated-rock-data ?p))

  (:action communicate-image-data
    :parameters (?l - lander ?o - objective ?m - mode ?x - waypoint ?y - waypoint)
    :precondition (and (at-rover ?x) (at-lander ?l ?y) (have-image ?o ?m) (visible ?x ?y))
    :effect (communicated-image-data ?o ?m)))
