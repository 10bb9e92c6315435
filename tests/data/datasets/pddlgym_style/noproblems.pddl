; A domain file without a problem folder: not offered as a dataset.
(define (domain noproblems)
  (:requirements :strips)
  (:predicates (done))
  (:action finish :parameters () :precondition () :effect (done)))
