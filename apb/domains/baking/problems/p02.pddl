(define (problem baking-1-0-2-2-2-1-1-0-0-s2)
  (:domain baking)
  (:objects
    egg_1 egg_2 - egg
    flour_1 sugar_1 - powder
    butter_1 - butter
    bowl_1 bowl_2 - bowl
    pan_1 pan_2 - pan
    measuring_cup_1 measuring_cup_2 - measuring-cup
    oven_1 - oven
    spatula_1 - spatula
    stand_mixer_1 - stand-mixer
    mixture_1 - mixture
    dessert_1 - dessert
  )
  (:init
    (is-flour flour_1)
    (is-sugar sugar_1)
    (mixture-for mixture_1 dessert_1)
    (on-counter pan_1)
    (on-counter pan_2)
  )
  (:goal (and
    (is-souffle dessert_1)
    (ready dessert_1)
  ))
)
