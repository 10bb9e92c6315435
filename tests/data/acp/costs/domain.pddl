; A road network with action costs: the direct road is one step but expensive, the detour two cheap steps.
(define (domain roads)
  (:requirements :strips :typing :action-costs)
  (:types place)
  (:predicates (at ?p - place) (road ?from ?to - place))
  (:functions (length ?from ?to - place) (total-cost))
  (:action drive
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to) (increase (total-cost) (length ?from ?to)))))
