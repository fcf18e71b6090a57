// Mandelbrot escape time, capped at 256 iterations: float, medium body, one
// level, high divergence (points inside the set run to the cap, others leave
// after a few steps).
// suite: split=held-out
// suite-input: cre f32 -2.0 0.6
// suite-input: cim f32 -1.2 1.2
func.func @escape(%cr: f32, %ci: f32) -> (i32, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %cap = arith.constant 256 : i32
  %zero = arith.constant 0.0 : f32
  %two = arith.constant 2.0 : f32
  %four = arith.constant 4.0 : f32
  %r:3 = scf.while (%x = %zero, %y = %zero, %n = %c0) : (f32, f32, i32) -> (f32, f32, i32) {
    %xx = arith.mulf %x, %x : f32
    %yy = arith.mulf %y, %y : f32
    %m = arith.addf %xx, %yy : f32
    %in = arith.cmpf ole, %m, %four : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %in, %room : i1
    scf.condition(%go) %x, %y, %n : f32, f32, i32
  } do {
  ^bb0(%x: f32, %y: f32, %n: i32):
    %xx = arith.mulf %x, %x : f32
    %yy = arith.mulf %y, %y : f32
    %d = arith.subf %xx, %yy : f32
    %x1 = arith.addf %d, %cr : f32
    %xy = arith.mulf %x, %y : f32
    %xy2 = arith.mulf %two, %xy : f32
    %y1 = arith.addf %xy2, %ci : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %x1, %y1, %n1 : f32, f32, i32
  }
  %xx = arith.mulf %r#0, %r#0 : f32
  %yy = arith.mulf %r#1, %r#1 : f32
  %m = arith.addf %xx, %yy : f32
  return %r#2, %m : i32, f32
}
func.func @main(%cre: tensor<?xf32> {loom.name = "cre"}, %cim: tensor<?xf32> {loom.name = "cim"})
    -> (tensor<?xi32> {loom.name = "n"}, tensor<?xf32> {loom.name = "mag"}) {
  %r:2 = loom.vmap @escape(%cre, %cim) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xi32>, tensor<?xf32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xf32>
}
