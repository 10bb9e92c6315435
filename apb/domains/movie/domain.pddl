; Movie, the variant modified by AutoPlanBench (from the IPC 1998 Movie domain): snacks can only be bought
; while the counter is at zero and the movie is not rewound, so they must be bought before the movie is
; started, rewound and the counter reset. Rewinding needs a counter away from zero, i.e. a started movie.
; Untyped: the unary predicates chips, dip, pop, cheese and crackers give the kind of each snack.

(define (domain movie-strips-complex)
  (:requirements :strips :negative-preconditions)

  (:predicates
    (movie-rewound)               ; the movie is rewound
    (counter-at-other-than-zero)  ; the counter is not at zero
    (counter-at-zero)             ; the counter is at zero
    (have-chips)                  ; we have chips
    (have-dip)                    ; we have dip
    (have-pop)                    ; we have pop
    (have-cheese)                 ; we have cheese
    (have-crackers)               ; we have crackers
    (chips ?x)                    ; ?x is a bag of chips
    (dip ?x)                      ; ?x is a dip
    (pop ?x)                      ; ?x is a pop
    (cheese ?x)                   ; ?x is a cheese
    (crackers ?x))                ; ?x is a box of crackers

  (:action rewind-movie
    :parameters ()
    :precondition (counter-at-other-than-zero)
    :effect (movie-rewound))

  (:action reset-counter
    :parameters ()
    :precondition (counter-at-other-than-zero)
    :effect (and (counter-at-zero) (not (counter-at-other-than-zero))))

  (:action start-movie
    :parameters ()
    :precondition (counter-at-zero)
    :effect (and (counter-at-other-than-zero) (not (counter-at-zero))))

  (:action undo-rewind
    :parameters ()
    :precondition (movie-rewound)
    :effect (not (movie-rewound)))

  ; snacks: only with the counter at zero and the movie not rewound
  (:action get-chips
    :parameters (?x)
    :precondition (and (chips ?x) (counter-at-zero) (not (movie-rewound)))
    :effect (have-chips))

  (:action get-dip
    :parameters (?x)
    :precondition (and (dip ?x) (counter-at-zero) (not (movie-rewound)))
    :effect (have-dip))

  (:action get-pop
    :parameters (?x)
    :precondition (and (pop ?x) (counter-at-zero) (not (movie-rewound)))
    :effect (have-pop))

  (:action get-cheese
    :parameters (?x)
    :precondition (and (cheese ?x) (counter-at-zero) (not (movie-rewound)))
    :effect (have-cheese))

  (:action get-crackers
    :parameters (?x)
    :precondition (and (crackers ?x) (counter-at-zero) (not (movie-rewound)))
    :effect (have-crackers)))
