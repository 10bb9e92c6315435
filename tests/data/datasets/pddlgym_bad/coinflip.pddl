; (:actions flip)
(define (domain coinflip)
  (:requirements :typing :probabilistic-effects)
  (:types coin)
  (:predicates (heads ?c - coin) (flip ?c - coin))
  (:action flip
    :parameters (?c - coin)
    :precondition (and (flip ?c))
    :effect (probabilistic 0.5 (heads ?c))))
