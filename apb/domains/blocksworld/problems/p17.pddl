(define (problem blocksworld-4-s119)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_d)
    (ontable block_b)
    (ontable block_c)
    (on block_d block_c)
    (clear block_a)
    (clear block_b))
  (:goal (and
    (on block_c block_d)
    (on block_d block_a))))
