// A hand-batched loop that couples lanes: every lane grows by a share of
// the sum over all lanes (loom.sum inside the loop) until every lane has
// passed the limit. loop-sync=local on it would change results.
func.func @main(%x: tensor<?xf32> {loom.batch_axis = 0 : i64, loom.name = "x"})
    -> (tensor<?xf32> {loom.batch_axis = 0 : i64, loom.name = "y"}) {
  %limit = arith.constant 1000.0 : f32
  %share = arith.constant 0.0137 : f32
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %lim = linalg.fill ins(%limit : f32) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    %m = arith.cmpf olt, %y, %lim : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %s = loom.sum %y along 0 : tensor<?xf32> -> f32
    %g = arith.mulf %s, %share : f32
    %t = linalg.fill ins(%g : f32) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    %y1 = arith.addf %y, %t : tensor<?xf32>
    scf.yield %y1 : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
