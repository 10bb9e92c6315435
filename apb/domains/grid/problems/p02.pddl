(define (problem grid-2-4-2-2-3-1-s2)
  (:domain grid)
  (:objects
    place_0-0
    place_0-1
    place_0-2
    place_0-3
    place_1-0
    place_1-1
    place_1-2
    place_1-3
    shape_0
    shape_1
    key_0
    key_1)
  (:init
    (arm-empty)
    (place place_0-0)
    (place place_0-1)
    (place place_0-2)
    (place place_0-3)
    (place place_1-0)
    (place place_1-1)
    (place place_1-2)
    (place place_1-3)
    (shape shape_0)
    (shape shape_1)
    (key key_0)
    (key key_1)
    (conn place_0-0 place_0-1)
    (conn place_0-0 place_1-0)
    (conn place_0-1 place_0-0)
    (conn place_0-1 place_0-2)
    (conn place_0-1 place_1-1)
    (conn place_0-2 place_0-1)
    (conn place_0-2 place_0-3)
    (conn place_0-2 place_1-2)
    (conn place_0-3 place_0-2)
    (conn place_0-3 place_1-3)
    (conn place_1-0 place_0-0)
    (conn place_1-0 place_1-1)
    (conn place_1-1 place_0-1)
    (conn place_1-1 place_1-0)
    (conn place_1-1 place_1-2)
    (conn place_1-2 place_0-2)
    (conn place_1-2 place_1-1)
    (conn place_1-2 place_1-3)
    (conn place_1-3 place_0-3)
    (conn place_1-3 place_1-2)
    (locked place_0-3)
    (locked place_1-0)
    (locked place_1-2)
    (lock-shape place_0-3 shape_0)
    (lock-shape place_1-0 shape_1)
    (lock-shape place_1-2 shape_0)
    (open place_0-0)
    (open place_0-1)
    (open place_0-2)
    (open place_1-1)
    (open place_1-3)
    (key-shape key_0 shape_0)
    (key-shape key_1 shape_1)
    (at key_0 place_1-1)
    (at key_1 place_1-3)
    (at-robot place_1-1))
  (:goal (and
    (at key_1 place_0-3))))
