// A logistic map iterated until its accumulator leaves [-A, A] or 300 steps,
// with an scf.if on the state inside the loop: float, heavy body (a
// polynomial either side), one level, high divergence.
// suite: split=held-out
// suite-input: rs f32 2.9 3.99
// suite-input: x0s f32 0.05 0.95
func.func @logi(%r: f32, %x0: f32) -> (f32, f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cap = arith.constant 300 : i32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %k1 = arith.constant 0.37 : f32
  %k2 = arith.constant 1.25 : f32
  %k3 = arith.constant 0.11 : f32
  %lim = arith.constant 6.0 : f32
  %res:3 = scf.while (%x = %x0, %acc = %zero, %n = %c0) : (f32, f32, i32) -> (f32, f32, i32) {
    %a = math.absf %acc : f32
    %in = arith.cmpf olt, %a, %lim : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %in, %room : i1
    scf.condition(%go) %x, %acc, %n : f32, f32, i32
  } do {
  ^bb0(%x: f32, %acc: f32, %n: i32):
    %om = arith.subf %one, %x : f32
    %rx = arith.mulf %r, %x : f32
    %x1 = arith.mulf %rx, %om : f32
    %hi = arith.cmpf ogt, %x1, %half : f32
    %d = scf.if %hi -> (f32) {
      %t0 = arith.mulf %x1, %k1 : f32
      %t1 = arith.addf %t0, %k2 : f32
      %t2 = arith.mulf %t1, %x1 : f32
      %t3 = arith.subf %t2, %k3 : f32
      %t4 = arith.mulf %t3, %om : f32
      scf.yield %t4 : f32
    } else {
      %u0 = arith.mulf %x1, %x1 : f32
      %u1 = arith.mulf %u0, %k2 : f32
      %u2 = arith.subf %k1, %u1 : f32
      %u3 = arith.mulf %u2, %rx : f32
      %u4 = arith.negf %u3 : f32
      scf.yield %u4 : f32
    }
    %acc1 = arith.addf %acc, %d : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %x1, %acc1, %n1 : f32, f32, i32
  }
  return %res#0, %res#1, %res#2 : f32, f32, i32
}
func.func @main(%rs: tensor<?xf32> {loom.name = "rs"}, %x0s: tensor<?xf32> {loom.name = "x0s"})
    -> (tensor<?xf32> {loom.name = "x"}, tensor<?xf32> {loom.name = "acc"}, tensor<?xi32> {loom.name = "n"}) {
  %r:3 = loom.vmap @logi(%rs, %x0s) in_axes [0, 0] out_axes [0, 0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1, %r#2 : tensor<?xf32>, tensor<?xf32>, tensor<?xi32>
}
