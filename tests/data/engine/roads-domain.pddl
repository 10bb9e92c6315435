; `road` is static (no action changes it), yet the problem's goal mentions it.
(define (domain roads)
  (:requirements :strips :negative-preconditions)
  (:predicates (road ?from ?to) (at ?place))
  (:action go
    :parameters (?from ?to)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))
