(define (problem baking-1-1-1-1-1-1-0-0-3-s16)
  (:domain baking)
  (:objects
    egg_1 egg_2 - egg
    flour_1 flour_2 flour_3 sugar_1 sugar_2 baking_powder_1 - powder
    butter_1 butter_2 - butter
    bowl_1 - bowl
    pan_1 - pan
    measuring_cup_1 - measuring-cup
    oven_1 - oven
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
    (is-baking-powder baking_powder_1)
    (mixture-for mixture_1 dessert_1)
    (mixture-for mixture_2 dessert_2)
    (on-counter pan_1)
    (used butter_1)
    (used sugar_1)
    (used egg_1)
    (used flour_1)
    (started mixture_1)
    (has-butter mixture_1)
    (has-sugar mixture_1)
    (mixture-in mixture_1 bowl_1)
    (full bowl_1)
    (has-egg mixture_1)
    (has-yolk mixture_1)
    (has-flour mixture_1)
    (mixed mixture_1)
    (souffle-mixture mixture_1)
  )
  (:goal (and
    (is-souffle dessert_1)
    (ready dessert_1)
    (is-cake dessert_2)
    (ready dessert_2)
  ))
)
