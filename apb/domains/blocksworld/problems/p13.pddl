(define (problem blocksworld-4-s115)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_b)
    (ontable block_b)
    (on block_c block_a)
    (ontable block_d)
    (clear block_c)
    (clear block_d))
  (:goal (and
    (on block_a block_b)
    (on block_b block_d))))
