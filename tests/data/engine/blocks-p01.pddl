; c is on a; a and b are on the table. Goal: a on b on c, and a no longer on the table.
(define (problem blocks-p01)
  (:domain blocks)
  (:objects a b c)
  (:init (clear c) (clear b) (on c a) (ontable a) (ontable b) (handempty))
  (:goal (and (on a b) (on b c) (not (ontable a)))))
