; black is not available: unsolvable
(define (problem ft-noblack) (:domain floor-tile)
  (:objects robot1 - robot tile1 tile2 tile3 tile4 - tile white black - color)
  (:init (robot-at robot1 tile1) (robot-has robot1 white) (available-color white) (up tile3 tile1) (up tile4 tile2) (right tile2 tile1) (right tile4 tile3))
  (:goal (and (painted tile3 white) (painted tile4 black))))
