// Bisection for the real root of x^3 + p x - q on [-50, 50] until the
// bracket is narrower than a per-lane tolerance, capped at 60 halvings:
// float, heavy body (the cubic at the midpoint, the sign test, two
// selects), one level, low divergence.
// suite: split=held-out
// suite-input: ps f32 0.5 30.0
// suite-input: qs f32 -200.0 200.0
// suite-input: tols f32 0.00001 0.01
func.func @bisect(%p: f32, %q: f32, %tol: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cap = arith.constant 60 : i32
  %lo0 = arith.constant -50.0 : f32
  %hi0 = arith.constant 50.0 : f32
  %half = arith.constant 0.5 : f32
  %zero = arith.constant 0.0 : f32
  %r:3 = scf.while (%lo = %lo0, %hi = %hi0, %n = %c0) : (f32, f32, i32) -> (f32, f32, i32) {
    %w = arith.subf %hi, %lo : f32
    %wide = arith.cmpf ogt, %w, %tol : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %wide, %room : i1
    scf.condition(%go) %lo, %hi, %n : f32, f32, i32
  } do {
  ^bb0(%lo: f32, %hi: f32, %n: i32):
    %s = arith.addf %lo, %hi : f32
    %mid = arith.mulf %s, %half : f32
    %m2 = arith.mulf %mid, %mid : f32
    %m3 = arith.mulf %m2, %mid : f32
    %pm = arith.mulf %p, %mid : f32
    %f0 = arith.addf %m3, %pm : f32
    %f = arith.subf %f0, %q : f32
    %pos = arith.cmpf ogt, %f, %zero : f32
    %lo1 = arith.select %pos, %lo, %mid : f32
    %hi1 = arith.select %pos, %mid, %hi : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %lo1, %hi1, %n1 : f32, f32, i32
  }
  %s = arith.addf %r#0, %r#1 : f32
  %root = arith.mulf %s, %half : f32
  return %root, %r#2 : f32, i32
}
func.func @main(%ps: tensor<?xf32> {loom.name = "ps"}, %qs: tensor<?xf32> {loom.name = "qs"},
                %tols: tensor<?xf32> {loom.name = "tols"})
    -> (tensor<?xf32> {loom.name = "root"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @bisect(%ps, %qs, %tols) in_axes [0, 0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
