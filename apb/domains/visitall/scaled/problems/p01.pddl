(define (problem visitall-4x4-h0-g16-s2000)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_0_1
    cell_0_2
    cell_0_3
    cell_1_0
    cell_1_1
    cell_1_2
    cell_1_3
    cell_2_0
    cell_2_1
    cell_2_2
    cell_2_3
    cell_3_0
    cell_3_1
    cell_3_2
    cell_3_3
    - place)
  (:init
    (at-robot cell_3_2)
    (visited cell_3_2)
    (connected cell_0_0 cell_1_0)
    (connected cell_0_0 cell_0_1)
    (connected cell_0_1 cell_1_1)
    (connected cell_0_1 cell_0_0)
    (connected cell_0_1 cell_0_2)
    (connected cell_0_2 cell_1_2)
    (connected cell_0_2 cell_0_1)
    (connected cell_0_2 cell_0_3)
    (connected cell_0_3 cell_1_3)
    (connected cell_0_3 cell_0_2)
    (connected cell_1_0 cell_0_0)
    (connected cell_1_0 cell_2_0)
    (connected cell_1_0 cell_1_1)
    (connected cell_1_1 cell_0_1)
    (connected cell_1_1 cell_2_1)
    (connected cell_1_1 cell_1_0)
    (connected cell_1_1 cell_1_2)
    (connected cell_1_2 cell_0_2)
    (connected cell_1_2 cell_2_2)
    (connected cell_1_2 cell_1_1)
    (connected cell_1_2 cell_1_3)
    (connected cell_1_3 cell_0_3)
    (connected cell_1_3 cell_2_3)
    (connected cell_1_3 cell_1_2)
    (connected cell_2_0 cell_1_0)
    (connected cell_2_0 cell_3_0)
    (connected cell_2_0 cell_2_1)
    (connected cell_2_1 cell_1_1)
    (connected cell_2_1 cell_3_1)
    (connected cell_2_1 cell_2_0)
    (connected cell_2_1 cell_2_2)
    (connected cell_2_2 cell_1_2)
    (connected cell_2_2 cell_3_2)
    (connected cell_2_2 cell_2_1)
    (connected cell_2_2 cell_2_3)
    (connected cell_2_3 cell_1_3)
    (connected cell_2_3 cell_3_3)
    (connected cell_2_3 cell_2_2)
    (connected cell_3_0 cell_2_0)
    (connected cell_3_0 cell_3_1)
    (connected cell_3_1 cell_2_1)
    (connected cell_3_1 cell_3_0)
    (connected cell_3_1 cell_3_2)
    (connected cell_3_2 cell_2_2)
    (connected cell_3_2 cell_3_1)
    (connected cell_3_2 cell_3_3)
    (connected cell_3_3 cell_2_3)
    (connected cell_3_3 cell_3_2))
  (:goal (and
    (visited cell_0_0)
    (visited cell_0_1)
    (visited cell_0_2)
    (visited cell_0_3)
    (visited cell_1_0)
    (visited cell_1_1)
    (visited cell_1_2)
    (visited cell_1_3)
    (visited cell_2_0)
    (visited cell_2_1)
    (visited cell_2_2)
    (visited cell_2_3)
    (visited cell_3_0)
    (visited cell_3_1)
    (visited cell_3_2)
    (visited cell_3_3))))
