(define (problem visitall-6x1-h0-g4-s4)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_1_0
    cell_2_0
    cell_3_0
    cell_4_0
    cell_5_0
    - place)
  (:init
    (at-robot cell_1_0)
    (visited cell_1_0)
    (connected cell_0_0 cell_1_0)
    (connected cell_1_0 cell_0_0)
    (connected cell_1_0 cell_2_0)
    (connected cell_2_0 cell_1_0)
    (connected cell_2_0 cell_3_0)
    (connected cell_3_0 cell_2_0)
    (connected cell_3_0 cell_4_0)
    (connected cell_4_0 cell_3_0)
    (connected cell_4_0 cell_5_0)
    (connected cell_5_0 cell_4_0))
  (:goal (and
    (visited cell_0_0)
    (visited cell_1_0)
    (visited cell_3_0)
    (visited cell_5_0))))
