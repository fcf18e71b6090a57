// Newton's square root to a relative tolerance, capped at 40 steps: float,
// light body, one level, low divergence (every lane takes 4 to 9 steps).
// suite: split=held-out
// suite-input: xs f32 0.5 5000
func.func @nsqrt(%x: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cap = arith.constant 40 : i32
  %half = arith.constant 0.5 : f32
  %tol = arith.constant 1.0e-6 : f32
  %r:2 = scf.while (%y = %x, %n = %c0) : (f32, i32) -> (f32, i32) {
    %yy = arith.mulf %y, %y : f32
    %err = arith.subf %yy, %x : f32
    %aerr = math.absf %err : f32
    %lim = arith.mulf %tol, %x : f32
    %far = arith.cmpf ogt, %aerr, %lim : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %far, %room : i1
    scf.condition(%go) %y, %n : f32, i32
  } do {
  ^bb0(%y: f32, %n: i32):
    %q = arith.divf %x, %y : f32
    %s = arith.addf %y, %q : f32
    %y1 = arith.mulf %half, %s : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %y1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%xs: tensor<?xf32> {loom.name = "xs"})
    -> (tensor<?xf32> {loom.name = "y"}, tensor<?xi32> {loom.name = "steps"}) {
  %r:2 = loom.vmap @nsqrt(%xs) in_axes [0] out_axes [0, 0]
      : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
