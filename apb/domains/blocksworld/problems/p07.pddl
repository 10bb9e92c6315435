(define (problem blocksworld-4-s109)
  (:domain blocksworld-4ops)
  (:objects block_a block_b block_c block_d)
  (:init
    (handempty)
    (on block_a block_c)
    (ontable block_b)
    (on block_c block_d)
    (ontable block_d)
    (clear block_a)
    (clear block_b))
  (:goal (and
    (on block_b block_d)
    (on block_c block_a))))
