; Baking: apb's kitchen for the closed-loop relational planning study (open-loop grounding vs closed-loop
; replanning). Written for apb from the study's description of its kitchen; not PDDLGym's small `baking`.
; Pans, bowls and measuring cups stand on the counter, ovens behind it. A souffle needs an egg yolk, sugar, butter
; and a little flour (one measured portion), folded with a spatula; a cake needs a whole egg, sugar, butter, more
; flour (two portions) and baking powder, beaten with the electric stand mixer. Ingredients go into a mixture in
; the order of the recipe (butter, sugar, egg, flour, ...). Every ingredient can be used once; each mixture is
; meant for one dessert. Bowls, pans, the spatula and the mixer must be clean to be used again.
; STRIPS with typing and negative preconditions.
(define (domain baking)
  (:requirements :strips :typing :negative-preconditions)
  (:types
    container measuring-cup dessert ingredient mixture oven spatula stand-mixer - object
    bowl pan - container
    egg powder butter - ingredient)
  (:predicates
    ; kinds of powder, and the dessert each mixture is for (static)
    (is-flour ?p - powder)
    (is-sugar ?p - powder)
    (is-baking-powder ?p - powder)
    (mixture-for ?m - mixture ?d - dessert)
    ; ingredients and tools
    (used ?i - ingredient)
    (in-cup ?p - powder ?c - measuring-cup ?m - mixture)
    (cup-full ?c - measuring-cup)
    (dirty ?x - object)
    ; what a mixture holds, in the order of the recipe: butter, sugar, an egg (its yolk for a souffle, the whole egg
    ; for a cake), flour, then for a cake more flour and baking powder
    (started ?m - mixture)
    (has-butter ?m - mixture)
    (has-sugar ?m - mixture)
    (has-egg ?m - mixture)
    (has-yolk ?m - mixture)
    (has-whole-egg ?m - mixture)
    (has-flour ?m - mixture)
    (has-more-flour ?m - mixture)
    (has-baking-powder ?m - mixture)
    (mixed ?m - mixture)
    (souffle-mixture ?m - mixture)
    (cake-batter ?m - mixture)
    (mixture-in ?m - mixture ?c - container)
    (full ?c - container)
    ; ovens and pans
    (hot ?o - oven)
    (on-counter ?p - pan)
    (in-oven ?p - pan ?o - oven)
    (oven-full ?o - oven)
    ; desserts
    (is-souffle ?d - dessert)
    (is-cake ?d - dessert)
    (dessert-in ?d - dessert ?p - pan)
    (ready ?d - dessert))

  ; ---- measuring powders ------------------------------------------------------------------------------------------
  (:action measure-powder
    :parameters (?p - powder ?c - measuring-cup ?m - mixture)
    :precondition (and (not (used ?p)) (not (cup-full ?c)) (not (mixed ?m)))
    :effect (and (used ?p) (in-cup ?p ?c ?m) (cup-full ?c)))

  ; ---- a mixture in a bowl, ingredient by ingredient ---------------------------------------------------------------
  (:action add-butter
    :parameters (?u - butter ?m - mixture ?b - bowl)
    :precondition (and (not (used ?u)) (not (started ?m)) (not (dirty ?b)) (not (full ?b)))
    :effect (and (used ?u) (started ?m) (has-butter ?m) (mixture-in ?m ?b) (full ?b)))

  (:action pour-sugar
    :parameters (?p - powder ?c - measuring-cup ?m - mixture ?b - bowl)
    :precondition (and (is-sugar ?p) (in-cup ?p ?c ?m) (mixture-in ?m ?b) (has-butter ?m) (not (has-sugar ?m)))
    :effect (and (has-sugar ?m) (not (in-cup ?p ?c ?m)) (not (cup-full ?c))))

  (:action separate-egg
    :parameters (?e - egg ?m - mixture ?b - bowl)
    :precondition (and (not (used ?e)) (mixture-in ?m ?b) (has-sugar ?m) (not (has-egg ?m)))
    :effect (and (used ?e) (has-egg ?m) (has-yolk ?m)))

  (:action crack-egg
    :parameters (?e - egg ?m - mixture ?b - bowl)
    :precondition (and (not (used ?e)) (mixture-in ?m ?b) (has-sugar ?m) (not (has-egg ?m)))
    :effect (and (used ?e) (has-egg ?m) (has-whole-egg ?m)))

  (:action pour-flour
    :parameters (?p - powder ?c - measuring-cup ?m - mixture ?b - bowl)
    :precondition (and (is-flour ?p) (in-cup ?p ?c ?m) (mixture-in ?m ?b) (has-egg ?m) (not (has-flour ?m)))
    :effect (and (has-flour ?m) (not (in-cup ?p ?c ?m)) (not (cup-full ?c))))

  (:action pour-more-flour
    :parameters (?p - powder ?c - measuring-cup ?m - mixture ?b - bowl)
    :precondition (and (is-flour ?p) (in-cup ?p ?c ?m) (mixture-in ?m ?b) (has-flour ?m) (not (has-more-flour ?m))
                       (not (mixed ?m)))
    :effect (and (has-more-flour ?m) (not (in-cup ?p ?c ?m)) (not (cup-full ?c))))

  (:action pour-baking-powder
    :parameters (?p - powder ?c - measuring-cup ?m - mixture ?b - bowl)
    :precondition (and (is-baking-powder ?p) (in-cup ?p ?c ?m) (mixture-in ?m ?b) (has-flour ?m)
                       (not (has-baking-powder ?m)) (not (mixed ?m)))
    :effect (and (has-baking-powder ?m) (not (in-cup ?p ?c ?m)) (not (cup-full ?c))))

  ; ---- mixing -----------------------------------------------------------------------------------------------------
  (:action fold-souffle-mixture
    :parameters (?m - mixture ?b - bowl ?s - spatula)
    :precondition (and (mixture-in ?m ?b) (has-yolk ?m) (has-flour ?m) (not (has-more-flour ?m))
                       (not (has-baking-powder ?m)) (not (mixed ?m)) (not (dirty ?s)))
    :effect (and (mixed ?m) (souffle-mixture ?m) (dirty ?s)))

  (:action beat-cake-batter
    :parameters (?m - mixture ?b - bowl ?x - stand-mixer)
    :precondition (and (mixture-in ?m ?b) (has-whole-egg ?m) (has-more-flour ?m) (has-baking-powder ?m)
                       (not (mixed ?m)) (not (dirty ?x)))
    :effect (and (mixed ?m) (cake-batter ?m) (dirty ?x)))

  (:action pour-mixture
    :parameters (?m - mixture ?b - bowl ?p - pan)
    :precondition (and (mixed ?m) (mixture-in ?m ?b) (on-counter ?p) (not (dirty ?p)) (not (full ?p)))
    :effect (and (mixture-in ?m ?p) (full ?p) (not (mixture-in ?m ?b)) (not (full ?b)) (dirty ?b)))

  ; ---- the oven ---------------------------------------------------------------------------------------------------
  (:action preheat-oven
    :parameters (?o - oven)
    :precondition (not (hot ?o))
    :effect (hot ?o))

  (:action put-pan-in-oven
    :parameters (?p - pan ?o - oven)
    :precondition (and (on-counter ?p) (full ?p) (not (oven-full ?o)))
    :effect (and (in-oven ?p ?o) (oven-full ?o) (not (on-counter ?p))))

  (:action bake-souffle
    :parameters (?m - mixture ?p - pan ?o - oven ?d - dessert)
    :precondition (and (souffle-mixture ?m) (mixture-for ?m ?d) (mixture-in ?m ?p) (in-oven ?p ?o) (hot ?o))
    :effect (and (is-souffle ?d) (dessert-in ?d ?p) (not (mixture-in ?m ?p))))

  (:action bake-cake
    :parameters (?m - mixture ?p - pan ?o - oven ?d - dessert)
    :precondition (and (cake-batter ?m) (mixture-for ?m ?d) (mixture-in ?m ?p) (in-oven ?p ?o) (hot ?o))
    :effect (and (is-cake ?d) (dessert-in ?d ?p) (not (mixture-in ?m ?p))))

  (:action remove-pan-from-oven
    :parameters (?p - pan ?o - oven)
    :precondition (in-oven ?p ?o)
    :effect (and (on-counter ?p) (not (in-oven ?p ?o)) (not (oven-full ?o))))

  (:action take-out-dessert
    :parameters (?d - dessert ?p - pan)
    :precondition (and (dessert-in ?d ?p) (on-counter ?p))
    :effect (and (ready ?d) (dirty ?p) (not (dessert-in ?d ?p)) (not (full ?p))))

  ; ---- cleaning ---------------------------------------------------------------------------------------------------
  (:action clean-bowl
    :parameters (?b - bowl)
    :precondition (dirty ?b)
    :effect (not (dirty ?b)))

  (:action clean-pan
    :parameters (?p - pan)
    :precondition (dirty ?p)
    :effect (not (dirty ?p)))

  (:action clean-spatula
    :parameters (?s - spatula)
    :precondition (dirty ?s)
    :effect (not (dirty ?s)))

  (:action clean-stand-mixer
    :parameters (?x - stand-mixer)
    :precondition (dirty ?x)
    :effect (not (dirty ?x)))
)
