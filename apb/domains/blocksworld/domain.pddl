; Blocksworld with four operators (IPC 2000, as used by AutoPlanBench and PlanBench).
; One hand moves blocks between the table and towers: pick-up / put-down work on the table,
; unstack / stack on top of another block. Untyped: every object is a block.

(define (domain blocksworld-4ops)
  (:requirements :strips)

  (:predicates
    (clear ?x)          ; nothing is on ?x
    (ontable ?x)        ; ?x stands on the table
    (handempty)         ; the hand holds nothing
    (holding ?x)        ; the hand holds ?x
    (on ?x ?y))         ; ?x stands directly on ?y

  (:action pick-up
    :parameters (?ob)
    :precondition (and (clear ?ob) (ontable ?ob) (handempty))
    :effect (and (holding ?ob)
                 (not (clear ?ob)) (not (ontable ?ob)) (not (handempty))))

  (:action put-down
    :parameters (?ob)
    :precondition (holding ?ob)
    :effect (and (clear ?ob) (handempty) (ontable ?ob)
                 (not (holding ?ob))))

  (:action stack
    :parameters (?ob ?underob)
    :precondition (and (clear ?underob) (holding ?ob))
    :effect (and (handempty) (clear ?ob) (on ?ob ?underob)
                 (not (clear ?underob)) (not (holding ?ob))))

  (:action unstack
    :parameters (?ob ?underob)
    :precondition (and (on ?ob ?underob) (clear ?ob) (handempty))
    :effect (and (holding ?ob) (clear ?underob)
                 (not (on ?ob ?underob)) (not (clear ?ob)) (not (handempty)))))
