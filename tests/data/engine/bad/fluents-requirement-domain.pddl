(define (domain declares-fluents)
  (:requirements :strips
                 :fluents)
  (:predicates (p ?x)))
