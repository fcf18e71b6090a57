// A uniform scf.for (a fixed number of steps) over a per-lane carry, and a
// uniform scf.while whose counter is the same on every lane.
func.func @steps(%x0: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %half = arith.constant 0.5 : f32
  %y = scf.for %i = %c0 to %c10 step %c1 iter_args(%x = %x0) -> (f32) {
    %h = arith.mulf %x, %half : f32
    %n = arith.addf %h, %half : f32
    scf.yield %n : f32
  }
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %five = arith.constant 5 : i32
  %r:2 = scf.while (%k = %zero, %v = %y) : (i32, f32) -> (i32, f32) {
    %go = arith.cmpi slt, %k, %five : i32
    scf.condition(%go) %k, %v : i32, f32
  } do {
  ^bb0(%k: i32, %v: f32):
    %k1 = arith.addi %k, %one : i32
    %v1 = arith.mulf %v, %v : f32
    scf.yield %k1, %v1 : i32, f32
  }
  return %r#1, %r#0 : f32, i32
}
func.func @main(%xs: tensor<?xf32> {loom.name = "xs"}) -> (tensor<?xf32> {loom.name = "ys"}, tensor<?xi32> {loom.name = "ks"}) {
  %ys, %ks = loom.vmap @steps(%xs) in_axes [0] out_axes [0, 0] : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %ys, %ks : tensor<?xf32>, tensor<?xi32>
}
