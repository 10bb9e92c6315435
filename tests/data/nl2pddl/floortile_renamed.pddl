; renamed tiles and robot: correct
(define (problem ft-renamed) (:domain floor-tile)
  (:objects r - robot t-sw t-se t-nw t-ne - tile white black - color)
  (:init (available-color black) (right t-ne t-nw) (robot-at r t-sw) (up t-ne t-se) (robot-has r white) (available-color white) (up t-nw t-sw) (right t-se t-sw))
  (:goal (and (painted t-ne black) (painted t-nw white))))
