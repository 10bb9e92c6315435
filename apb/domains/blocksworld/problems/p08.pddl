(define (problem blocksworld-4-s110)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (ontable block_a)
    (ontable block_b)
    (on block_c block_d)
    (on block_d block_b)
    (clear block_a)
    (clear block_c))
  (:goal (and
    (on block_b block_c))))
