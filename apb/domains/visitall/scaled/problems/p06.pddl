(define (problem visitall-3x8-h0-g24-s2005)
  (:domain grid-visit-all)
  (:objects
    cell_0_0
    cell_0_1
    cell_0_2
    cell_0_3
    cell_0_4
    cell_0_5
    cell_0_6
    cell_0_7
    cell_1_0
    cell_1_1
    cell_1_2
    cell_1_3
    cell_1_4
    cell_1_5
    cell_1_6
    cell_1_7
    cell_2_0
    cell_2_1
    cell_2_2
    cell_2_3
    cell_2_4
    cell_2_5
    cell_2_6
    cell_2_7
    - place)
  (:init
    (at-robot cell_1_6)
    (visited cell_1_6)
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
    (connected cell_0_3 cell_0_4)
    (connected cell_0_4 cell_1_4)
    (connected cell_0_4 cell_0_3)
    (connected cell_0_4 cell_0_5)
    (connected cell_0_5 cell_1_5)
    (connected cell_0_5 cell_0_4)
    (connected cell_0_5 cell_0_6)
    (connected cell_0_6 cell_1_6)
    (connected cell_0_6 cell_0_5)
    (connected cell_0_6 cell_0_7)
    (connected cell_0_7 cell_1_7)
    (connected cell_0_7 cell_0_6)
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
    (connected cell_1_3 cell_1_4)
    (connected cell_1_4 cell_0_4)
    (connected cell_1_4 cell_2_4)
    (connected cell_1_4 cell_1_3)
    (connected cell_1_4 cell_1_5)
    (connected cell_1_5 cell_0_5)
    (connected cell_1_5 cell_2_5)
    (connected cell_1_5 cell_1_4)
    (connected cell_1_5 cell_1_6)
    (connected cell_1_6 cell_0_6)
    (connected cell_1_6 cell_2_6)
    (connected cell_1_6 cell_1_5)
    (connected cell_1_6 cell_1_7)
    (connected cell_1_7 cell_0_7)
    (connected cell_1_7 cell_2_7)
    (connected cell_1_7 cell_1_6)
    (connected cell_2_0 cell_1_0)
    (connected cell_2_0 cell_2_1)
    (connected cell_2_1 cell_1_1)
    (connected cell_2_1 cell_2_0)
    (connected cell_2_1 cell_2_2)
    (connected cell_2_2 cell_1_2)
    (connected cell_2_2 cell_2_1)
    (connected cell_2_2 cell_2_3)
    (connected cell_2_3 cell_1_3)
    (connected cell_2_3 cell_2_2)
    (connected cell_2_3 cell_2_4)
    (connected cell_2_4 cell_1_4)
    (connected cell_2_4 cell_2_3)
    (connected cell_2_4 cell_2_5)
    (connected cell_2_5 cell_1_5)
    (connected cell_2_5 cell_2_4)
    (connected cell_2_5 cell_2_6)
    (connected cell_2_6 cell_1_6)
    (connected cell_2_6 cell_2_5)
    (connected cell_2_6 cell_2_7)
    (connected cell_2_7 cell_1_7)
    (connected cell_2_7 cell_2_6))
  (:goal (and
    (visited cell_0_0)
    (visited cell_0_1)
    (visited cell_0_2)
    (visited cell_0_3)
    (visited cell_0_4)
    (visited cell_0_5)
    (visited cell_0_6)
    (visited cell_0_7)
    (visited cell_1_0)
    (visited cell_1_1)
    (visited cell_1_2)
    (visited cell_1_3)
    (visited cell_1_4)
    (visited cell_1_5)
    (visited cell_1_6)
    (visited cell_1_7)
    (visited cell_2_0)
    (visited cell_2_1)
    (visited cell_2_2)
    (visited cell_2_3)
    (visited cell_2_4)
    (visited cell_2_5)
    (visited cell_2_6)
    (visited cell_2_7))))
