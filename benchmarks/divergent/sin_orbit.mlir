// A point pushed along by sin and exp until it passes a target, capped at
// 200 steps: float, libm calls (math.sin, math.exp) each step, one level,
// moderate divergence.
// suite: split=fit
// suite-input: x0s f32 0.0 3.0
// suite-input: targets f32 4.0 20.0
func.func @orbit(%x0: f32, %target: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cap = arith.constant 200 : i32
  %k = arith.constant 0.3 : f32
  %m = arith.constant -0.05 : f32
  %base = arith.constant 0.2 : f32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (f32, i32) -> (f32, i32) {
    %below = arith.cmpf olt, %x, %target : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %below, %room : i1
    scf.condition(%go) %x, %n : f32, i32
  } do {
  ^bb0(%x: f32, %n: i32):
    %s = math.sin %x : f32
    %mx = arith.mulf %m, %x : f32
    %e = math.exp %mx : f32
    %ks = arith.mulf %k, %s : f32
    %step0 = arith.addf %ks, %e : f32
    %step1 = math.absf %step0 : f32
    %step = arith.addf %step1, %base : f32
    %x1 = arith.addf %x, %step : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %x1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%x0s: tensor<?xf32> {loom.name = "x0s"}, %targets: tensor<?xf32> {loom.name = "targets"})
    -> (tensor<?xf32> {loom.name = "x"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @orbit(%x0s, %targets) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
