; Unsolvable even without deletes: the initial state is a recognised dead end.
(define (problem vase-gone)
  (:domain vase)
  (:init (broken))
  (:goal (done)))
