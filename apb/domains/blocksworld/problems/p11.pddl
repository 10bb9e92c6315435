(define (problem blocksworld-4-s113)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_c)
    (on block_b block_a)
    (ontable block_c)
    (on block_d block_b)
    (clear block_d))
  (:goal (and
    (on block_b block_c)
    (on block_c block_a))))
