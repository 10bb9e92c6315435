; Optimal plan: (start) (drive t1 shop home) (park t1).
(define (problem features-1)
  (:domain features)
  (:objects t1 - truck b1 - bike shop - place d1 - depot)
  (:init (at t1 shop) (at b1 home) (linked shop home) (linked home shop) (linked home home))
  (:goal (and (parked t1) (not (at b1 shop)))))
