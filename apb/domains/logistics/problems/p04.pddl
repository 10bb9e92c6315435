(define (problem logistics-c2-l2-p3-a2-s103)
  (:domain logistics-strips)
  (:objects
    airplane_0 airplane_1
    city_0 city_1
    truck_0 truck_1
    airport_0 loc_0_1 airport_1 loc_1_1
    package_0 package_1 package_2
  )
  (:init
    (AIRPLANE airplane_0)
    (AIRPLANE airplane_1)
    (CITY city_0)
    (CITY city_1)
    (TRUCK truck_0)
    (TRUCK truck_1)
    (LOCATION airport_0)
    (in-city airport_0 city_0)
    (LOCATION loc_0_1)
    (in-city loc_0_1 city_0)
    (LOCATION airport_1)
    (in-city airport_1 city_1)
    (LOCATION loc_1_1)
    (in-city loc_1_1 city_1)
    (AIRPORT airport_0)
    (AIRPORT airport_1)
    (OBJ package_0)
    (OBJ package_1)
    (OBJ package_2)
    (at truck_0 loc_0_1)
    (at truck_1 airport_1)
    (at package_0 loc_1_1)
    (at package_1 loc_1_1)
    (at package_2 airport_1)
    (at airplane_0 airport_0)
    (at airplane_1 airport_0)
  )
  (:goal (and
    (at package_0 airport_1)
    (at package_1 airport_0)
    (at package_2 loc_0_1)
  ))
)
