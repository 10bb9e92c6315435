; A robot on a line of cells: h_max = LM-cut = the distance to the goal cell (every move on the way is a landmark).
(define (domain chain)
  (:requirements :strips :typing)
  (:types cell)
  (:predicates (at ?c - cell) (next ?a ?b - cell))
  (:action move
    :parameters (?from ?to - cell)
    :precondition (and (at ?from) (next ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))
