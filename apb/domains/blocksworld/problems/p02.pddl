(define (problem blocksworld-4-s103)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_c)
    (ontable block_b)
    (on block_c block_b)
    (ontable block_d)
    (clear block_a)
    (clear block_d))
  (:goal (and
    (on block_a block_b)
    (on block_c block_a))))
