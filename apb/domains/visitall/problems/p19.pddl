(define (problem visitall-4x2-h1-g4-s22)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_0_1
    cell_1_1
    cell_2_0
    cell_2_1
    cell_3_0
    cell_3_1
    - place)
  (:init
    (at-robot cell_0_1)
    (visited cell_0_1)
    (connected cell_0_0 cell_0_1)
    (connected cell_0_1 cell_1_1)
    (connected cell_0_1 cell_0_0)
    (connected cell_1_1 cell_0_1)
    (connected cell_1_1 cell_2_1)
    (connected cell_2_0 cell_3_0)
    (connected cell_2_0 cell_2_1)
    (connected cell_2_1 cell_1_1)
    (connected cell_2_1 cell_3_1)
    (connected cell_2_1 cell_2_0)
    (connected cell_3_0 cell_2_0)
    (connected cell_3_0 cell_3_1)
    (connected cell_3_1 cell_2_1)
    (connected cell_3_1 cell_3_0))
  (:goal (and
    (visited cell_0_0)
    (visited cell_0_1)
    (visited cell_2_1)
    (visited cell_3_0))))
