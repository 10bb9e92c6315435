(define (problem grid-3-2-2-2-2-2-s19)
  (:domain grid)
  (:objects
    place_0-0
    place_0-1
    place_1-0
    place_1-1
    place_2-0
    place_2-1
    shape_0
    shape_1
    key_0
    key_1)
  (:init
    (arm-empty)
    (place place_0-0)
    (place place_0-1)
    (place place_1-0)
    (place place_1-1)
    (place place_2-0)
    (place place_2-1)
    (shape shape_0)
    (shape shape_1)
    (key key_0)
    (key key_1)
    (conn place_0-0 place_0-1)
    (conn place_0-0 place_1-0)
    (conn place_0-1 place_0-0)
    (conn place_0-1 place_1-1)
    (conn place_1-0 place_0-0)
    (conn place_1-0 place_1-1)
    (conn place_1-0 place_2-0)
    (conn place_1-1 place_0-1)
    (conn place_1-1 place_1-0)
    (conn place_1-1 place_2-1)
    (conn place_2-0 place_1-0)
    (conn place_2-0 place_2-1)
    (conn place_2-1 place_1-1)
    (conn place_2-1 place_2-0)
    (locked place_0-0)
    (locked place_0-1)
    (lock-shape place_0-0 shape_1)
    (lock-shape place_0-1 shape_1)
    (open place_1-0)
    (open place_1-1)
    (open place_2-0)
    (open place_2-1)
    (key-shape key_0 shape_1)
    (key-shape key_1 shape_0)
    (at key_0 place_2-0)
    (at key_1 place_1-0)
    (at-robot place_2-0))
  (:goal (and
    (at key_0 place_0-0)
    (at key_1 place_1-1))))
