; Optimal plan: make-x, make-y, make-z (3). h_max = 2, LM-cut = 3, h_add = 3, h_FF = 3, goal count = 2.
(define (problem landmarks-1)
  (:domain landmarks)
  (:init)
  (:goal (and (y) (z))))
