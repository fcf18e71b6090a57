// An scf.for with a per-lane trip count n (zero for n <= 0) whose body reads
// a weight table at a lane-dependent index and calls math.exp on every
// other step (an scf.if on the step's parity): float with an int index,
// one level, high divergence.
// suite: split=fit
// suite-input: ns i32 -10 120
// suite-input: xs f32 -1.0 1.0
func.func @ltf(%n: i32, %x: f32) -> (f32) {
  %w = arith.constant dense<[0.9, -0.3, 0.45, 0.12, -0.7, 0.33, 0.05, -0.21, 0.6, -0.48, 0.27, 0.81, -0.14, 0.38, -0.02, 0.5]> : tensor<16xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c15 = arith.constant 15 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f32
  %tenth = arith.constant 0.1 : f32
  %ni = arith.index_cast %n : i32 to index
  %r = scf.for %k = %c0 to %ni step %c1 iter_args(%acc = %zero) -> (f32) {
    %xk = arith.muli %k, %ni : index
    %i = arith.andi %xk, %c15 : index
    %wi = tensor.extract %w[%i] : tensor<16xf32>
    %par = arith.remui %k, %c2 : index
    %even = arith.cmpi eq, %par, %c0 : index
    %t = scf.if %even -> (f32) {
      %a = arith.mulf %wi, %x : f32
      %e = math.exp %a : f32
      scf.yield %e : f32
    } else {
      %a = arith.mulf %wi, %tenth : f32
      scf.yield %a : f32
    }
    %acc1 = arith.addf %acc, %t : f32
    scf.yield %acc1 : f32
  }
  return %r : f32
}
func.func @main(%ns: tensor<?xi32> {loom.name = "ns"}, %xs: tensor<?xf32> {loom.name = "xs"})
    -> (tensor<?xf32> {loom.name = "acc"}) {
  %r = loom.vmap @ltf(%ns, %xs) in_axes [0, 0] out_axes [0]
      : (tensor<?xi32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
