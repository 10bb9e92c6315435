; One action achieves both goals: h_max = LM-cut = 1 (the optimum), h_add = 2 counts it twice.
(define (domain shared)
  (:requirements :strips)
  (:predicates (a) (b))
  (:action make-a :parameters () :effect (a))
  (:action make-b :parameters () :effect (b))
  (:action make-both :parameters () :effect (and (a) (b))))
