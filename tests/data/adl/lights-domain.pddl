; Conditional effects: toggle flips every lamp of a room (conditions read the state before the action),
; and a forall/when nest; swap deletes and adds the same fact (add wins).
(define (domain lights)
  (:requirements :adl)
  (:types lamp room)
  (:predicates (on ?l - lamp) (in ?l - lamp ?r - room) (broken ?l - lamp) (dark ?r - room) (marked ?l - lamp))
  (:action toggle
    :parameters (?r - room)
    :precondition (not (dark ?r))
    :effect (forall (?l - lamp)
              (when (and (in ?l ?r) (not (broken ?l)))
                (and (when (on ?l) (not (on ?l)))
                     (when (not (on ?l)) (on ?l))))))
  (:action darken
    :parameters (?r - room)
    :precondition (forall (?l - lamp) (imply (in ?l ?r) (not (on ?l))))
    :effect (dark ?r))
  (:action mark
    :parameters (?l - lamp)
    :precondition (or (on ?l) (broken ?l))
    :effect (and (not (marked ?l)) (marked ?l)))
  (:action repair
    :parameters (?l - lamp)
    :precondition (and (broken ?l) (exists (?r - room) (and (in ?l ?r) (not (dark ?r)))))
    :effect (not (broken ?l))))
