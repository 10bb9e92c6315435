(define (problem grid-3-4-2-3-3-1-s15)
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
    place_2-0
    place_2-1
    place_2-2
    place_2-3
    shape_0
    shape_1
    key_0
    key_1
    key_2)
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
    (place place_2-0)
    (place place_2-1)
    (place place_2-2)
    (place place_2-3)
    (shape shape_0)
    (shape shape_1)
    (key key_0)
    (key key_1)
    (key key_2)
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
    (conn place_1-0 place_2-0)
    (conn place_1-1 place_0-1)
    (conn place_1-1 place_1-0)
    (conn place_1-1 place_1-2)
    (conn place_1-1 place_2-1)
    (conn place_1-2 place_0-2)
    (conn place_1-2 place_1-1)
    (conn place_1-2 place_1-3)
    (conn place_1-2 place_2-2)
    (conn place_1-3 place_0-3)
    (conn place_1-3 place_1-2)
    (conn place_1-3 place_2-3)
    (conn place_2-0 place_1-0)
    (conn place_2-0 place_2-1)
    (conn place_2-1 place_1-1)
    (conn place_2-1 place_2-0)
    (conn place_2-1 place_2-2)
    (conn place_2-2 place_1-2)
    (conn place_2-2 place_2-1)
    (conn place_2-2 place_2-3)
    (conn place_2-3 place_1-3)
    (conn place_2-3 place_2-2)
    (locked place_0-0)
    (locked place_0-3)
    (locked place_2-1)
    (lock-shape place_0-0 shape_1)
    (lock-shape place_0-3 shape_0)
    (lock-shape place_2-1 shape_0)
    (open place_0-1)
    (open place_0-2)
    (open place_1-0)
    (open place_1-1)
    (open place_1-2)
    (open place_1-3)
    (open place_2-0)
    (open place_2-2)
    (open place_2-3)
    (key-shape key_0 shape_1)
    (key-shape key_1 shape_0)
    (key-shape key_2 shape_0)
    (at key_0 place_0-1)
    (at key_1 place_1-1)
    (at key_2 place_1-3)
    (at-robot place_0-2))
  (:goal (and
    (at key_2 place_1-1))))
