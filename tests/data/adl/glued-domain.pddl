; Lexical habits Fast Downward accepts: no space before a variable, as in zenotravel's (aircraft?a).
(define (domain glued)
  (:requirements :typing)
  (:types thing)
  (:predicates (ready?x - thing) (done ?x - thing))
  (:action finish
    :parameters (?x - thing)
    :precondition (ready?x)
    :effect (and (done?x) (not (ready ?x)))))
