; unsolvable: the static goal fact (road l3 l1) is false and nothing can make it true
(define (problem roads-p02)
  (:domain roads)
  (:objects l1 l2 l3)
  (:init (at l1) (road l1 l2) (road l2 l3))
  (:goal (and (at l3) (road l3 l1))))
