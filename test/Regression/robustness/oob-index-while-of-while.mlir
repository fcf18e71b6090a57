// A mutant of the MWE (python-free-examples/mwe/while_of_while.mlir) whose
// constant index is INT32_MIN: it compiled, and segfaulted at run time under
// per-lane and auto. loom-run now refuses it with one located line, under
// every strategy and shard count (the check runs before batching).
// RUN: not loom-run %s --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 > %t.auto 2>&1
// RUN: FileCheck %s < %t.auto && count 1 < %t.auto
// RUN: not loom-run %s --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 --divergent per-lane --shards 2 > %t.lane 2>&1
// RUN: FileCheck %s < %t.lane && count 1 < %t.lane
// RUN: not loom-run %s --input inits=fill:0.1:4x1xf32 --input keys=jax-split:0:4 --divergent masked > %t.masked 2>&1
// RUN: FileCheck %s < %t.masked && count 1 < %t.masked

// The seed's pure-JAX minimal example (google/jax#20968), as Loom IR.
//
//   def f(t, y, theta): return jnp.abs(jnp.sin(t)) + theta * y
//   def solve(init, key):
//     inner: while y.squeeze() < 10: (t, y) = (t + 0.1, y + 0.1 * f(t, y, theta))
//     outer: while count < 5:
//       y = jax.random.uniform(jax.random.PRNGKey(count), shape=(1,))
//       (t, y) = inner(t, y); count += 1
//     count starts at jax.random.randint(key, minval=-2, maxval=2, shape=())
//   jax.jit(jax.vmap(solve))(0.1 * jnp.ones((B, 1)), jax.random.split(PRNGKey(0), B))
//
// Both loop predicates depend on per-lane data (count from the lane's key, y
// from the inner loop), so under vmap both levels are divergent: the
// while-of-while that a sharded jax.jit synchronises on every iteration.

// The vector field, on one lane.
func.func private @f(%t: f32, %y: f32, %theta: f32) -> f32 {
  %s = math.sin %t : f32
  %a = math.absf %s : f32
  %ty = arith.mulf %theta, %y : f32
  %r = arith.addf %a, %ty : f32
  return %r : f32
}

// One lane of the MWE: returns the final y.
func.func @solve(%init: tensor<1xf32> {loom.name = "init"},
                 %key: tensor<2xi32> {loom.name = "key"})
    -> (tensor<1xf32> {loom.name = "y"}) {
  %c0 = arith.constant -2147483648 : index
  %theta = arith.constant 5.0 : f32
  %t0 = arith.constant 0.0 : f32
  %dt = arith.constant 0.1 : f32
  %ten = arith.constant 10.0 : f32
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lo = arith.constant -2 : i32
  %hi = arith.constant 2 : i32
  %five = arith.constant 5 : i32
  %c1 = arith.constant 1 : i32
  %count0 = loom.random.randint %key, %lo, %hi : i32
  %out:3 = scf.while (%t = %t0, %y = %init, %count = %count0)
      : (f32, tensor<1xf32>, i32) -> (f32, tensor<1xf32>, i32) {
    %go = arith.cmpi slt, %count, %five : i32
    scf.condition(%go) %t, %y, %count : f32, tensor<1xf32>, i32
  } do {
  ^bb0(%t: f32, %y: tensor<1xf32>, %count: i32):
    %k = loom.random.key %count : i32
    %y1 = loom.random.uniform %k, %zero, %one : tensor<1xf32>
    %in:2 = scf.while (%ti = %t, %yi = %y1)
        : (f32, tensor<1xf32>) -> (f32, tensor<1xf32>) {
      // CHECK: {{^}}loom-run: {{.*}}oob-index-while-of-while.mlir:[[# @LINE + 1]]:13: error: 'tensor.extract' op index -2147483648 is out of bounds for dimension 0 of size 1{{$}}
      %ys = tensor.extract %yi[%c0] : tensor<1xf32>
      %more = arith.cmpf olt, %ys, %ten : f32
      scf.condition(%more) %ti, %yi : f32, tensor<1xf32>
    } do {
    ^bb0(%ti: f32, %yi: tensor<1xf32>):
      %ys = tensor.extract %yi[%c0] : tensor<1xf32>
      %dy = func.call @f(%ti, %ys, %theta) : (f32, f32, f32) -> f32
      %step = arith.mulf %dt, %dy : f32
      %yn = arith.addf %ys, %step : f32
      %tn = arith.addf %ti, %dt : f32
      %yt = tensor.from_elements %yn : tensor<1xf32>
      scf.yield %tn, %yt : f32, tensor<1xf32>
    }
    %next = arith.addi %count, %c1 : i32
    scf.yield %in#0, %in#1, %next : f32, tensor<1xf32>, i32
  }
  return %out#1 : tensor<1xf32>
}

// jax.vmap(solve) over any batch size.
func.func @main(%inits: tensor<?x1xf32> {loom.name = "inits"},
                %keys: tensor<?x2xi32> {loom.name = "keys"})
    -> (tensor<?x1xf32> {loom.name = "ys"}) {
  %ys = loom.vmap @solve(%inits, %keys) in_axes [0, 0] out_axes [0]
      : (tensor<?x1xf32>, tensor<?x2xi32>) -> tensor<?x1xf32>
  return %ys : tensor<?x1xf32>
}
