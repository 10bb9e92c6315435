(define (problem baking-0-1-2-2-1-1-1-0-0-s4)
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
  )
  (:goal (and
    (is-cake dessert_1)
    (ready dessert_1)
  ))
)
