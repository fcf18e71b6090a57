// A uniform outer loop (16 sweeps every lane shares) around a divergent
// inner relaxation: each sweep halves the lane's error until it is below a
// tolerance read from a table at a per-lane index. Lanes already below it
// skip the inner loop (zero trips); float, medium body.
// suite: split=held-out
// suite-input: x0s f32 0.01 900.0
// suite-input: slots i32 0 7
func.func @relax(%x0: f32, %slot: i32) -> (f32, i32) {
  %tols = arith.constant dense<[0.5, 0.05, 1.0, 0.01, 2.0, 0.2, 0.001, 0.1]> : tensor<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %i7 = arith.constant 7 : i32
  %k = arith.constant 0.55 : f32
  %grow = arith.constant 1.7 : f32
  %r:2 = scf.for %sweep = %c0 to %c16 step %c1 iter_args(%x = %x0, %n = %i0) -> (f32, i32) {
    %in:3 = scf.while (%y = %x, %m = %n, %s = %slot) : (f32, i32, i32) -> (f32, i32, i32) {
      %si = arith.index_cast %s : i32 to index
      %tol = tensor.extract %tols[%si] : tensor<8xf32>
      %ay = math.absf %y : f32
      %go = arith.cmpf ogt, %ay, %tol : f32
      scf.condition(%go) %y, %m, %s : f32, i32, i32
    } do {
    ^bb0(%y: f32, %m: i32, %s: i32):
      %y1 = arith.mulf %y, %k : f32
      %m1 = arith.addi %m, %i1 : i32
      %s1 = arith.addi %s, %i1 : i32
      %s2 = arith.andi %s1, %i7 : i32
      scf.yield %y1, %m1, %s2 : f32, i32, i32
    }
    %x1 = arith.mulf %in#0, %grow : f32
    %x2 = arith.addf %x1, %x0 : f32
    scf.yield %x2, %in#1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%x0s: tensor<?xf32> {loom.name = "x0s"}, %slots: tensor<?xi32> {loom.name = "slots"})
    -> (tensor<?xf32> {loom.name = "x"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @relax(%x0s, %slots) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xi32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
