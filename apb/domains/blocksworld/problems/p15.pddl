(define (problem blocksworld-4-s117)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (ontable block_a)
    (ontable block_b)
    (on block_c block_a)
    (on block_d block_c)
    (clear block_b)
    (clear block_d))
  (:goal (and
    (on block_c block_d))))
