(define (problem visitall-3x3-h2-g4-s23)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_0_2
    cell_1_0
    cell_1_2
    cell_2_0
    cell_2_1
    cell_2_2
    - place)
  (:init
    (at-robot cell_0_0)
    (visited cell_0_0)
    (connected cell_0_0 cell_1_0)
    (connected cell_0_2 cell_1_2)
    (connected cell_1_0 cell_0_0)
    (connected cell_1_0 cell_2_0)
    (connected cell_1_2 cell_0_2)
    (connected cell_1_2 cell_2_2)
    (connected cell_2_0 cell_1_0)
    (connected cell_2_0 cell_2_1)
    (connected cell_2_1 cell_2_0)
    (connected cell_2_1 cell_2_2)
    (connected cell_2_2 cell_1_2)
    (connected cell_2_2 cell_2_1))
  (:goal (and
    (visited cell_0_0)
    (visited cell_1_2)
    (visited cell_2_0)
    (visited cell_2_1))))
