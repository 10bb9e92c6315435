; A vase can be finished or smashed, either way it is used up: smashing it is a dead end for finishing it.
(define (domain vase)
  (:requirements :strips)
  (:predicates (intact) (done) (broken))
  (:action finish :parameters () :precondition (intact) :effect (and (done) (not (intact))))
  (:action smash :parameters () :precondition (intact) :effect (and (broken) (not (intact)))))
