; Unsolvable, but only because of delete effects: h_max = 1, LM-cut = 2, and search must exhaust the states.
(define (problem vase-both)
  (:domain vase)
  (:init (intact))
  (:goal (and (done) (broken))))
