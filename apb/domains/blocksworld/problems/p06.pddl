(define (problem blocksworld-4-s108)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (ontable block_a)
    (on block_b block_c)
    (on block_c block_a)
    (on block_d block_b)
    (clear block_d))
  (:goal (and
    (on block_c block_d)
    (on block_d block_a))))
