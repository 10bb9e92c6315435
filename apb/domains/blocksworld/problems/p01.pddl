(define (problem blocksworld-4-s102)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_c)
    (on block_b block_d)
    (ontable block_c)
    (on block_d block_a)
    (clear block_b))
  (:goal (and
    (on block_a block_c)
    (on block_c block_d))))
