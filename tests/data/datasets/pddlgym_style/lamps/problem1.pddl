(define (problem lamps-1)
  (:domain lamps)
  (:objects hall_lamp desk_lamp - lamp hall study - room)
  (:init
    (inroom hall_lamp hall)
    (inroom desk_lamp study)
    (lit desk_lamp)
    ; action literals, for the hall lamp only: PDDLGym ignores them
    (switchon hall_lamp)
    (switchoff hall_lamp)
  )
  (:goal (and (bright hall) (bright study)))
)
