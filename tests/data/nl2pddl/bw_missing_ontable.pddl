; the init forgets every (on-table ...): nothing can be picked up
(define (problem bw-notable) (:domain blocksworld)
  (:objects b1 b2 b3 b4)
  (:init (arm-empty) (clear b1) (clear b2) (clear b3) (clear b4))
  (:goal (and (on b1 b2) (on b2 b3) (on b3 b4))))
