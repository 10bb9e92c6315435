; Derived predicates: reachability is the transitive closure of open doors (recursive, stratum 0);
; safe needs the negation of a stratum-0 predicate (stratum 1).
(define (domain reach)
  (:requirements :strips :typing :derived-predicates :negative-preconditions :disjunctive-preconditions
                 :equality :existential-preconditions)
  (:types place)
  (:constants home - place)
  (:predicates (door ?a ?b - place) (open ?a ?b - place) (reachable ?p - place) (trap ?p - place)
               (safe ?p - place) (visited ?p - place))
  (:derived (reachable ?p - place) (= ?p home))
  (:derived (reachable ?p - place) (exists (?q - place) (and (reachable ?q) (open ?q ?p))))
  (:derived (safe ?p - place) (and (reachable ?p) (not (trap ?p))))
  (:action open-door
    :parameters (?a ?b - place)
    :precondition (and (door ?a ?b) (reachable ?a))
    :effect (open ?a ?b))
  (:action close-door
    :parameters (?a ?b - place)
    :precondition (open ?a ?b)
    :effect (not (open ?a ?b)))
  (:action disarm
    :parameters (?p - place)
    :precondition (and (trap ?p) (reachable ?p))
    :effect (not (trap ?p)))
  (:action visit
    :parameters (?p - place)
    :precondition (safe ?p)
    :effect (visited ?p)))
