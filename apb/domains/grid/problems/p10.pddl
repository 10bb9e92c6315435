(define (problem grid-2-3-1-2-2-2-s10)
  (:domain grid)
  (:objects
    place_0-0
    place_0-1
    place_0-2
    place_1-0
    place_1-1
    place_1-2
    shape_0
    key_0
    key_1)
  (:init
    (arm-empty)
    (place place_0-0)
    (place place_0-1)
    (place place_0-2)
    (place place_1-0)
    (place place_1-1)
    (place place_1-2)
    (shape shape_0)
    (key key_0)
    (key key_1)
    (conn place_0-0 place_0-1)
    (conn place_0-0 place_1-0)
    (conn place_0-1 place_0-0)
    (conn place_0-1 place_0-2)
    (conn place_0-1 place_1-1)
    (conn place_0-2 place_0-1)
    (conn place_0-2 place_1-2)
    (conn place_1-0 place_0-0)
    (conn place_1-0 place_1-1)
    (conn place_1-1 place_0-1)
    (conn place_1-1 place_1-0)
    (conn place_1-1 place_1-2)
    (conn place_1-2 place_0-2)
    (conn place_1-2 place_1-1)
    (locked place_0-0)
    (locked place_1-1)
    (lock-shape place_0-0 shape_0)
    (lock-shape place_1-1 shape_0)
    (open place_0-1)
    (open place_0-2)
    (open place_1-0)
    (open place_1-2)
    (key-shape key_0 shape_0)
    (key-shape key_1 shape_0)
    (at key_0 place_1-0)
    (at key_1 place_0-2)
    (at-robot place_1-0))
  (:goal (and
    (at key_0 place_1-2)
    (at key_1 place_1-1))))
