(define (problem visitall-2x3-h0-g5-s15)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_0_1
    cell_0_2
    cell_1_0
    cell_1_1
    cell_1_2
    - place)
  (:init
    (at-robot cell_0_1)
    (visited cell_0_1)
    (connected cell_0_0 cell_1_0)
    (connected cell_0_0 cell_0_1)
    (connected cell_0_1 cell_1_1)
    (connected cell_0_1 cell_0_0)
    (connected cell_0_1 cell_0_2)
    (connected cell_0_2 cell_1_2)
    (connected cell_0_2 cell_0_1)
    (connected cell_1_0 cell_0_0)
    (connected cell_1_0 cell_1_1)
    (connected cell_1_1 cell_0_1)
    (connected cell_1_1 cell_1_0)
    (connected cell_1_1 cell_1_2)
    (connected cell_1_2 cell_0_2)
    (connected cell_1_2 cell_1_1))
  (:goal (and
    (visited cell_0_0)
    (visited cell_0_1)
    (visited cell_1_0)
    (visited cell_1_1)
    (visited cell_1_2))))
