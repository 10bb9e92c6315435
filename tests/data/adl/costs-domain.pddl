; Action costs: a constant increase, a static function of the parameters, and an action with no increase.
(define (domain roads)
  (:requirements :typing :action-costs)
  (:types city)
  (:predicates (at ?c - city) (road ?a ?b - city) (visited ?c - city))
  (:functions (total-cost) - number
              (distance ?a ?b - city) - number)
  (:action drive
    :parameters (?from ?to - city)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to)
                 (increase (total-cost) (distance ?from ?to))))
  (:action fly
    :parameters (?from ?to - city)
    :precondition (at ?from)
    :effect (and (not (at ?from)) (at ?to) (increase (total-cost) 50)))
  (:action look
    :parameters (?c - city)
    :precondition (at ?c)
    :effect (visited ?c)))
