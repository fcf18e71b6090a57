// A batched loop written by hand in the entry, around a vmap: nothing
// freezes a lane once its predicate is false, so every lane keeps adding 1
// while any lane anywhere runs.
func.func @id(%x: f32) -> f32 {
  return %x : f32
}
func.func @main(%a: tensor<?xf32> {loom.name = "a"}) -> (tensor<?xf32> {loom.name = "r"}) {
  %b = loom.vmap @id(%a) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?xf32>
  %c0 = arith.constant 0 : index
  %n = tensor.dim %b, %c0 : tensor<?xf32>
  %ten = arith.constant 10.0 : f32
  %one = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %lim = linalg.fill ins(%ten : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %r = scf.while (%y = %b) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %lim : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %z = arith.addf %y, %ones : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
