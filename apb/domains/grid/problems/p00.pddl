(define (problem grid-2-2-1-1-1-1-s1000)
  (:domain grid)
  (:objects
    place_0-0
    place_0-1
    place_1-0
    place_1-1
    shape_0
    key_0)
  (:init
    (arm-empty)
    (place place_0-0)
    (place place_0-1)
    (place place_1-0)
    (place place_1-1)
    (shape shape_0)
    (key key_0)
    (conn place_0-0 place_0-1)
    (conn place_0-0 place_1-0)
    (conn place_0-1 place_0-0)
    (conn place_0-1 place_1-1)
    (conn place_1-0 place_0-0)
    (conn place_1-0 place_1-1)
    (conn place_1-1 place_0-1)
    (conn place_1-1 place_1-0)
    (locked place_1-0)
    (lock-shape place_1-0 shape_0)
    (open place_0-0)
    (open place_0-1)
    (open place_1-1)
    (key-shape key_0 shape_0)
    (at key_0 place_1-1)
    (at-robot place_1-1))
  (:goal (and
    (at key_0 place_0-0))))
