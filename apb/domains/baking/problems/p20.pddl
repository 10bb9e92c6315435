(define (problem baking-0-1-2-2-1-1-1-1-2-s21)
  (:domain baking)
  (:objects
    egg_1 - egg
    flour_1 flour_2 flour_3 sugar_1 baking_powder_1 - powder
    butter_1 - butter
    bowl_1 bowl_2 - bowl
    pan_1 pan_2 - pan
    measuring_cup_1 - measuring-cup
    oven_1 - oven
    spatula_1 - spatula
    stand_mixer_1 - stand-mixer
    mixture_1 - mixture
    dessert_1 - dessert
  )
  (:init
    (is-flour flour_1)
    (is-flour flour_2)
    (is-flour flour_3)
    (is-sugar sugar_1)
    (is-baking-powder baking_powder_1)
    (mixture-for mixture_1 dessert_1)
    (on-counter pan_1)
    (on-counter pan_2)
    (dirty pan_2)
    (used butter_1)
    (used sugar_1)
    (used egg_1)
    (used flour_1)
    (used flour_2)
    (used baking_powder_1)
    (started mixture_1)
    (has-butter mixture_1)
    (has-sugar mixture_1)
    (mixture-in mixture_1 bowl_1)
    (full bowl_1)
    (has-egg mixture_1)
    (has-whole-egg mixture_1)
    (has-flour mixture_1)
    (has-more-flour mixture_1)
    (has-baking-powder mixture_1)
  )
  (:goal (and
    (is-cake dessert_1)
    (ready dessert_1)
  ))
)
