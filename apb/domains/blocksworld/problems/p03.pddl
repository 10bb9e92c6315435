(define (problem blocksworld-4-s104)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_c)
    (ontable block_b)
    (on block_c block_b)
    (on block_d block_a)
    (clear block_d))
  (:goal (and
    (on block_b block_d)
    (on block_d block_c))))
