// A random walk per lane until it leaves a band of per-lane width, capped
// at 400 steps: each step draws a uniform number on a key folded from the
// lane's seed and its step count (a random number on a per-lane key, which
// the batched forms draw lane by lane, threefry's out-of-line variants on
// vector lanes), float and int, one level, high divergence (3 to ~300
// steps).
// suite: split=held-out
// suite-input: seeds i32 0 100000
// suite-input: widths f32 1.0 6.0
func.func @walk(%seed: i32, %w: f32) -> (f32, i32) {
  %i0 = arith.constant 0 : i32
  %i1 = arith.constant 1 : i32
  %cap = arith.constant 400 : i32
  %zero = arith.constant 0.0 : f32
  %lo = arith.constant -1.0 : f32
  %hi = arith.constant 1.0 : f32
  %r:2 = scf.while (%x = %zero, %n = %i0) : (f32, i32) -> (f32, i32) {
    %ax = math.absf %x : f32
    %in = arith.cmpf olt, %ax, %w : f32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %in, %room : i1
    scf.condition(%go) %x, %n : f32, i32
  } do {
  ^bb0(%x: f32, %n: i32):
    %s = arith.addi %seed, %n : i32
    %k = loom.random.key %s : i32
    %u = loom.random.uniform %k, %lo, %hi : f32
    %x1 = arith.addf %x, %u : f32
    %n1 = arith.addi %n, %i1 : i32
    scf.yield %x1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%seeds: tensor<?xi32> {loom.name = "seeds"}, %ws: tensor<?xf32> {loom.name = "widths"})
    -> (tensor<?xf32> {loom.name = "x"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @walk(%seeds, %ws) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xi32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
