(define (problem goldminer-6x1-s13)
  (:domain gold-miner-typed)
  (:objects
    loc_0-0
    loc_1-0
    loc_2-0
    loc_3-0
    loc_4-0
    loc_5-0 - LOC)
  (:init
    (arm-empty)
    (connected loc_0-0 loc_1-0)
    (connected loc_1-0 loc_2-0)
    (connected loc_2-0 loc_3-0)
    (connected loc_3-0 loc_4-0)
    (connected loc_4-0 loc_5-0)
    (connected loc_1-0 loc_0-0)
    (connected loc_2-0 loc_1-0)
    (connected loc_3-0 loc_2-0)
    (connected loc_4-0 loc_3-0)
    (connected loc_5-0 loc_4-0)
    (clear loc_0-0)
    (robot-at loc_1-0)
    (clear loc_1-0)
    (bomb-at loc_2-0)
    (laser-at loc_2-0)
    (clear loc_2-0)
    (clear loc_3-0)
    (clear loc_4-0)
    (gold-at loc_5-0)
    (soft-rock-at loc_5-0))
  (:goal (holds-gold)))
