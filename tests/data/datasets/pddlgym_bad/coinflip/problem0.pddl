(define (problem coinflip-0) (:domain coinflip) (:objects c - coin) (:init (flip c)) (:goal (heads c)))
