(define (problem misused-0) (:domain misused) (:objects a - lamp) (:init (switchon a)) (:goal (lit a)))
