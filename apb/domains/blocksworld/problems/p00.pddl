(define (problem blocksworld-4-s1005)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_b)
    (ontable block_b)
    (ontable block_c)
    (ontable block_d)
    (clear block_a)
    (clear block_c)
    (clear block_d))
  (:goal (and
    (on block_b block_c))))
