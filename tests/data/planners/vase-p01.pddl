; Solvable in one step (finish); after smash the goal is unreachable even without deletes.
(define (problem vase-finish)
  (:domain vase)
  (:init (intact))
  (:goal (done)))
