// RUN: loom-opt %s -split-input-file -loom-shard=shards=2 -loom-localize-loops -verify-diagnostics | FileCheck %s
// RUN: loom-opt %s -split-input-file -loom-shard=shards=2 -loom-localize-loops=loop-sync=global -verify-diagnostics=false 2>/dev/null | FileCheck %s --check-prefix=GLOBAL
// RUN: not loom-opt %s -split-input-file -loom-shard=shards=2 -loom-localize-loops=loop-sync=local 2>&1 | FileCheck %s --check-prefix=LOCAL
// RUN: not loom-opt %s -loom-localize-loops=loop-sync=sometimes 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: {{^}}loom-opt: for the --loop-sync option: Cannot find option named 'sometimes'!{{$}}

// A loop loom-vmap built masked (it carries the decided loom.strategy), whose
// only cross-shard value is its predicate, runs shard-local under auto: the
// all-reduce is gone.
// CHECK-LABEL: func.func @masked
// CHECK: scf.while
// CHECK: %[[L:.*]] = loom.any
// CHECK: scf.condition(%[[L]])
// CHECK-NOT: mesh.all_reduce
// CHECK: loom.strategy = #loom.strategy<masked>
// GLOBAL-LABEL: func.func @masked
// GLOBAL: mesh.all_reduce
func.func @masked(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-remark @+1 {{loop-sync local: each shard reduces its own lanes' predicate and stops when they are done; nothing else in the loop crosses shards}}
  %r:2 = scf.while (%y = %x) : (tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi1>) {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y, %m : tensor<?xf32>, tensor<?xi1>
  } do {
  ^bb0(%y: tensor<?xf32>, %m: tensor<?xi1>):
    %z = arith.addf %y, %y : tensor<?xf32>
    %s = arith.select %m, %z, %y : tensor<?xi1>, tensor<?xf32>
    scf.yield %s : tensor<?xf32>
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r#0 : tensor<?xf32>
}

// -----

// The same loop written by hand (no decided masked mark): nothing freezes a
// finished lane, which goes on changing while any lane anywhere runs, so a
// shard stopping early would change its lanes' results. It stays global,
// and loop-sync=local is refused.
// CHECK-LABEL: func.func @independent
// CHECK: mesh.all_reduce
// GLOBAL-LABEL: func.func @independent
// GLOBAL: mesh.all_reduce
// LOCAL: error: loop-sync=local would change results: this loop is not a masked loop from loom-vmap: finished lanes may still change, so every shard runs every iteration
func.func @independent(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-remark @+1 {{loop-sync global: not a masked loop from loom-vmap: finished lanes may still change, so every shard runs every iteration}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %z = arith.addf %y, %y : tensor<?xf32>
    scf.yield %z : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A loop that couples lanes (a cross-lane sum inside it) must stay global
// under auto: stopping one shard early would change the sum the others see.
// CHECK-LABEL: func.func @coupled
// CHECK: mesh.all_reduce
// CHECK: mesh.all_gather
// LOCAL: error: loop-sync=local would change results: the loop also reduces across shards (loom.sum
func.func @coupled(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-remark @+1 {{loop-sync global: the loop also reduces across shards (loom.sum at}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %s = loom.sum %y along 0 : tensor<?xf32> -> f32
    %t = linalg.fill ins(%s : f32) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    scf.yield %t : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// Loops are decided innermost first: an inner loop that must stay global
// keeps a collective inside the outer loop, so the outer one stays global
// too (a shard leaving it early would leave the others waiting).
// CHECK-LABEL: func.func @nested
// CHECK-COUNT-2: mesh.all_reduce
func.func @nested(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-remark @+1 {{loop-sync global: the loop also reduces across shards (loom.any at}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    // expected-remark @+1 {{loop-sync global: the loop also reduces across shards (loom.sum at}}
    %in = scf.while (%w = %y) : (tensor<?xf32>) -> tensor<?xf32> {
      %m2 = arith.cmpf olt, %w, %w : tensor<?xf32>
      %go2 = loom.any %m2 along 0 : tensor<?xi1> -> i1
      scf.condition(%go2) %w : tensor<?xf32>
    } do {
    ^bb0(%w: tensor<?xf32>):
      %s = loom.sum %w along 0 : tensor<?xf32> -> f32
      %t = linalg.fill ins(%s : f32) outs(%w : tensor<?xf32>) -> tensor<?xf32>
      scf.yield %t : tensor<?xf32>
    }
    scf.yield %in : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}

// -----

// A loom.loop_sync attribute pins one loop whatever the pass option says.
// CHECK-LABEL: func.func @pinned
// CHECK: mesh.all_reduce
func.func @pinned(%x: tensor<?xf32> {loom.batch_axis = 0 : i64}) -> tensor<?xf32> {
  // expected-remark @+1 {{loop-sync global (pinned by loom.loop_sync): the predicate is all-reduced across shards on every iteration}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    scf.yield %y : tensor<?xf32>
  } attributes {loom.loop_sync = #loom.loop_sync<global>}
  return %r : tensor<?xf32>
}
