(define (problem blocksworld-4-s121)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_d)
    (ontable block_b)
    (on block_c block_b)
    (on block_d block_c)
    (clear block_a))
  (:goal (and
    (on block_d block_b))))
