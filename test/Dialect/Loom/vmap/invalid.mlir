// RUN: loom-opt %s -loom-vmap -split-input-file -verify-diagnostics -allow-unregistered-dialect

// A recursive callee: cloning per batchedness signature would never end.
func.func private @even(%n: i32) -> i1 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %zero -> i1 {
    %t = arith.constant true
    scf.yield %t : i1
  } else {
    %m = arith.subi %n, %c1 : i32
    // expected-error @+1 {{cannot batch the recursive call to @even: vmap clones a function once per batchedness signature, which never ends for recursion}}
    %o = func.call @even(%m) : (i32) -> i1
    %t = arith.constant true
    %e = arith.xori %o, %t : i1
    scf.yield %e : i1
  }
  return %r : i1
}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi1> {
  %r = loom.vmap @even(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi1>
  return %r : tensor<?xi1>
}

// -----

// An op with no batching rule that reads a per-lane value stops the pass.
func.func private @f(%x: f32) -> f32 {
  // expected-error @+1 {{no batching rule for 'test.mystery': loom-vmap cannot batch it when it reads a per-lane value}}
  %y = "test.mystery"(%x) : (f32) -> f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// out_axes none promises a value every lane shares.
func.func private @f(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> f32 {
  // expected-error @+1 {{result #0 of @f differs per lane, so out_axes[0] cannot be none}}
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [none]
      : (tensor<?xf32>) -> f32
  return %r : f32
}

// -----

// A loop pinned to uniform whose predicate differs per lane.
func.func private @f(%n: i32 {loom.name = "n"}) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error @+1 {{loop is pinned to loom.strategy<uniform>, but its predicate depends on argument #0 (n)}}
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1 : i32
  } attributes {loom.strategy = #loom.strategy<uniform>}
  return %r : i32
}
func.func @main(%ns: tensor<?xi32>) -> tensor<?xi32> {
  %r = loom.vmap @f(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// -----

// vmap needs the callee's body.
func.func private @f(f32) -> f32
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{cannot vmap @f: it is only declared, and vmap needs its body}}
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// So does every function it calls with a per-lane value.
func.func private @g(f32) -> f32
func.func private @f(%x: f32) -> f32 {
  // expected-error @+1 {{cannot batch the call to @g: it is only declared, and vmap needs its body}}
  %y = func.call @g(%x) : (f32) -> f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0]
      : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// A tensor whose size differs per lane would make a ragged batch.
func.func private @f(%x: f32, %n: index) -> tensor<?xf32> {
  // expected-error @+1 {{cannot batch 'tensor.splat': its size differs per lane (ragged batch)}}
  %t = tensor.splat %x[%n] : tensor<?xf32>
  return %t : tensor<?xf32>
}
func.func @main(%xs: tensor<4xf32>, %ns: tensor<4xindex>) -> tensor<4x?xf32> {
  %r = loom.vmap @f(%xs, %ns) in_axes [0, 0] out_axes [0]
      : (tensor<4xf32>, tensor<4xindex>) -> tensor<4x?xf32>
  return %r : tensor<4x?xf32>
}

// -----

// vmap of a function that itself maps over values that differ per lane.
func.func private @inner(%x: f32, %s: f32) -> f32 {
  %r = arith.mulf %x, %s : f32
  return %r : f32
}
func.func private @outer(%v: tensor<3xf32>, %s: f32) -> tensor<3xf32> {
  // expected-error @+1 {{cannot batch a nested loom.vmap (now a call to @inner_vmap_bu_3) whose operands differ per lane: vmap of vmap is not supported yet}}
  %r = loom.vmap @inner(%v, %s) in_axes [0, none] out_axes [0]
      : (tensor<3xf32>, f32) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
func.func @main(%vs: tensor<?x3xf32>, %ss: tensor<?xf32>) -> tensor<?x3xf32> {
  %r = loom.vmap @outer(%vs, %ss) in_axes [0, 0] out_axes [0]
      : (tensor<?x3xf32>, tensor<?xf32>) -> tensor<?x3xf32>
  return %r : tensor<?x3xf32>
}
