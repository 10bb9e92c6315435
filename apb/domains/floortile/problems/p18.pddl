(define (problem floortile-2-2-2-s18)
  (:domain floor-tile)
  (:objects
    tile_0-1 tile_0-2
    tile_1-1 tile_1-2
    tile_2-1 tile_2-2 - tile
    robot_1 robot_2 - robot
    color_white color_black - color)
  (:init
    (robot-at robot_1 tile_0-2)
    (robot-has robot_1 color_white)
    (robot-at robot_2 tile_0-1)
    (robot-has robot_2 color_black)
    (available-color color_white)
    (available-color color_black)
    (clear tile_1-1)
    (clear tile_1-2)
    (clear tile_2-1)
    (clear tile_2-2)
    (up tile_1-1 tile_0-1)
    (up tile_1-2 tile_0-2)
    (up tile_2-1 tile_1-1)
    (up tile_2-2 tile_1-2)
    (down tile_0-1 tile_1-1)
    (down tile_0-2 tile_1-2)
    (down tile_1-1 tile_2-1)
    (down tile_1-2 tile_2-2)
    (right tile_0-2 tile_0-1)
    (right tile_1-2 tile_1-1)
    (right tile_2-2 tile_2-1)
    (left tile_0-1 tile_0-2)
    (left tile_1-1 tile_1-2)
    (left tile_2-1 tile_2-2))
  (:goal (and
    (painted tile_1-1 color_white)
    (painted tile_1-2 color_black)
    (painted tile_2-1 color_black)
    (painted tile_2-2 color_white))))
