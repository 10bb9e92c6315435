(define (problem quantified-0) (:domain quantified) (:objects a - lamp) (:init (switchall)) (:goal (lit a)))
