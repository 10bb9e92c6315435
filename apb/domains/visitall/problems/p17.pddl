(define (problem visitall-3x2-h0-g5-s19)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_0_1
    cell_1_0
    cell_1_1
    cell_2_0
    cell_2_1
    - place)
  (:init
    (at-robot cell_2_1)
    (visited cell_2_1)
    (connected cell_0_0 cell_1_0)
    (connected cell_0_0 cell_0_1)
    (connected cell_0_1 cell_1_1)
    (connected cell_0_1 cell_0_0)
    (connected cell_1_0 cell_0_0)
    (connected cell_1_0 cell_2_0)
    (connected cell_1_0 cell_1_1)
    (connected cell_1_1 cell_0_1)
    (connected cell_1_1 cell_2_1)
    (connected cell_1_1 cell_1_0)
    (connected cell_2_0 cell_1_0)
    (connected cell_2_0 cell_2_1)
    (connected cell_2_1 cell_1_1)
    (connected cell_2_1 cell_2_0))
  (:goal (and
    (visited cell_0_0)
    (visited cell_1_0)
    (visited cell_1_1)
    (visited cell_2_0)
    (visited cell_2_1))))
