; Three independent subgoals: h_max sees only the longest chain, LM-cut counts one landmark per action.
(define (domain landmarks)
  (:requirements :strips)
  (:predicates (x) (y) (z))
  (:action make-x :parameters () :effect (x))
  (:action make-y :parameters () :precondition (x) :effect (y))
  (:action make-z :parameters () :effect (z)))
