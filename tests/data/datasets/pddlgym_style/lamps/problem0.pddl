(define (problem lamps-0)
  (:domain lamps)
  (:objects hall_lamp - lamp hall - room)
  (:goal (and (bright hall)))
  (:init
    (inroom hall_lamp hall)

    ; action literals
    (switchon hall_lamp)
    (switchoff hall_lamp)
  )
)
