(define (problem delivery-p01)
  (:domain delivery)
  (:objects
    t1 - truck
    v1 - van
    home shop - place
    far - airport
    box - parcel
    wrench - tool)
  (:init
    (at t1 home) (at v1 hq)
    (road home shop) (road shop home) (road shop depot) (road depot shop) (road home home)
    (parcel-at box home) (parcel-at wrench shop))
  (:goal (and (delivered box) (parcel-at wrench depot))))
