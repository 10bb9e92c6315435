(define (problem baking-2-0-1-1-1-2-1-2-0-s8)
  (:domain baking)
  (:objects
    egg_1 egg_2 - egg
    flour_1 flour_2 flour_3 sugar_1 sugar_2 - powder
    butter_1 butter_2 - butter
    bowl_1 - bowl
    pan_1 - pan
    measuring_cup_1 - measuring-cup
    oven_1 oven_2 - oven
    spatula_1 - spatula
    stand_mixer_1 - stand-mixer
    mixture_1 mixture_2 - mixture
    dessert_1 dessert_2 - dessert
  )
  (:init
    (is-flour flour_1)
    (is-flour flour_2)
    (is-flour flour_3)
    (is-sugar sugar_1)
    (is-sugar sugar_2)
    (mixture-for mixture_1 dessert_1)
    (mixture-for mixture_2 dessert_2)
    (on-counter pan_1)
    (dirty pan_1)
    (dirty spatula_1)
  )
  (:goal (and
    (is-souffle dessert_1)
    (ready dessert_1)
    (is-souffle dessert_2)
    (ready dessert_2)
  ))
)
