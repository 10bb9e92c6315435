; Effects that delete and add the same fact, negative preconditions, and equality vs. no equality.
(define (domain toggle)
  (:requirements :strips :negative-preconditions :equality)
  (:predicates (mark ?x) (lit ?x) (linked ?x ?y))

  ; deletes and adds (mark ?x): PDDL applies deletes first, so (mark ?x) ends up true
  (:action refresh
    :parameters (?x)
    :precondition (lit ?x)
    :effect (and (not (mark ?x)) (mark ?x)))

  ; same effect, written add-first: the order in the file must not matter
  (:action refresh-add-first
    :parameters (?x)
    :precondition (lit ?x)
    :effect (and (mark ?x) (not (mark ?x))))

  (:action light
    :parameters (?x)
    :precondition (not (lit ?x))
    :effect (lit ?x))

  (:action unlight
    :parameters (?x)
    :precondition (lit ?x)
    :effect (not (lit ?x)))

  ; no equality test: ?x and ?y may be the same object
  (:action link
    :parameters (?x ?y)
    :precondition (and (lit ?x) (lit ?y))
    :effect (linked ?x ?y))

  ; (not (= ?x ?y)) forbids binding the same object twice
  (:action link-distinct
    :parameters (?x ?y)
    :precondition (and (lit ?x) (lit ?y) (not (= ?x ?y)))
    :effect (linked ?x ?y))

  ; (= ?x ?y) requires it
  (:action link-self
    :parameters (?x ?y)
    :precondition (and (lit ?x) (= ?x ?y))
    :effect (linked ?x ?y)))
