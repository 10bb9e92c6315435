; Small ADL domain for NL feedback tests: every failing construct has one action.
(define (domain guards)
  (:requirements :adl :derived-predicates :action-costs)
  (:types block)
  (:predicates (clear ?b - block) (red ?b - block) (heavy ?b - block) (on ?a ?b - block) (done ?b - block)
               (free ?b - block))
  (:functions (total-cost) - number)
  (:derived (free ?b - block) (and (clear ?b) (not (heavy ?b))))
  (:action paint
    :parameters (?b - block)
    :precondition (or (clear ?b) (red ?b))
    :effect (and (done ?b) (increase (total-cost) 2)))
  (:action sweep
    :parameters (?b - block)
    :precondition (forall (?c - block) (clear ?c))
    :effect (and (done ?b) (forall (?c - block) (when (red ?c) (not (red ?c)))) (increase (total-cost) 1)))
  (:action lift
    :parameters (?b - block)
    :precondition (exists (?c - block) (on ?c ?b))
    :effect (and (not (clear ?b)) (increase (total-cost) 3)))
  (:action polish
    :parameters (?b - block)
    :precondition (or (clear ?b) (red ?b) (heavy ?b))
    :effect (and (done ?b) (increase (total-cost) 1)))
  (:action move
    :parameters (?b - block)
    :precondition (free ?b)
    :effect (and (done ?b) (when (red ?b) (heavy ?b)) (increase (total-cost) 1))))
