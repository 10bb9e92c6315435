(define (domain uses-durative)
  (:requirements :strips)
  (:predicates (p ?x))
  (:durative-action a
    :parameters (?x)
    :duration (= ?duration 1)
    :condition (at start (p ?x))
    :effect (at end (not (p ?x)))))
