; a disjunctive goal is outside the task: unparseable
(define (problem bw-or) (:domain blocksworld)
  (:objects b1 b2 b3 b4)
  (:init (arm-empty) (on-table b1) (on-table b2) (on-table b3) (on-table b4) (clear b1) (clear b2) (clear b3) (clear b4))
  (:goal (and (on b3 b4) (or (on b1 b2) (on b2 b3)))))
