; objects renamed, facts reordered: correct
(define (problem renamed) (:domain blocksworld)
  (:objects red green blue yellow)
  (:init (clear yellow) (clear red) (on-table blue) (arm-empty) (clear green) (on-table red) (clear blue) (on-table green) (on-table yellow))
  (:goal (and (on green blue) (on red green) (on blue yellow))))
