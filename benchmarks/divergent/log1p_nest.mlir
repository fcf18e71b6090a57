// Two levels with libm: an outer loop until a running sum of log1p terms
// passes a per-lane target; each outer step runs an inner loop of k steps
// (k grows with the outer count, per lane), each calling math.log1p.
// suite: split=held-out
// suite-input: targets f32 1.0 40.0
// suite-input: scales f32 0.05 0.8
func.func @lsum(%target: f32, %scale: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.while (%s = %zero, %n = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf olt, %s, %target : f32
    scf.condition(%go) %s, %n : f32, i32
  } do {
  ^bb0(%s: f32, %n: i32):
    %rem = arith.remsi %n, %c3 : i32
    %k = arith.addi %rem, %c1 : i32
    %in:2 = scf.while (%j = %c0, %t = %s) : (i32, f32) -> (i32, f32) {
      %more = arith.cmpi slt, %j, %k : i32
      scf.condition(%more) %j, %t : i32, f32
    } do {
    ^bb0(%j: i32, %t: f32):
      %jf = arith.sitofp %j : i32 to f32
      %a = arith.mulf %jf, %scale : f32
      %b = arith.addf %a, %scale : f32
      %l = math.log1p %b : f32
      %t1 = arith.addf %t, %l : f32
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1, %t1 : i32, f32
    }
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %in#1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%targets: tensor<?xf32> {loom.name = "targets"}, %scales: tensor<?xf32> {loom.name = "scales"})
    -> (tensor<?xf32> {loom.name = "sum"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @lsum(%targets, %scales) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
