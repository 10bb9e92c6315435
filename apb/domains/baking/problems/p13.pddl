(define (problem baking-1-0-1-1-1-1-2-2-1-s13)
  (:domain baking)
  (:objects
    egg_1 - egg
    flour_1 sugar_1 sugar_2 sugar_3 - powder
    butter_1 - butter
    bowl_1 - bowl
    pan_1 - pan
    measuring_cup_1 - measuring-cup
    oven_1 - oven
    spatula_1 - spatula
    stand_mixer_1 - stand-mixer
    mixture_1 - mixture
    dessert_1 - dessert
  )
  (:init
    (is-flour flour_1)
    (is-sugar sugar_1)
    (is-sugar sugar_2)
    (is-sugar sugar_3)
    (mixture-for mixture_1 dessert_1)
    (on-counter pan_1)
    (dirty pan_1)
    (dirty spatula_1)
    (used butter_1)
    (used sugar_1)
    (started mixture_1)
    (has-butter mixture_1)
    (has-sugar mixture_1)
    (mixture-in mixture_1 bowl_1)
    (full bowl_1)
  )
  (:goal (and
    (is-souffle dessert_1)
    (ready dessert_1)
  ))
)
