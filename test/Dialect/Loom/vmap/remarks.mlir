// RUN: loom-opt %s -loom-vmap=divergent=masked -split-input-file -verify-diagnostics | FileCheck %s --check-prefix=DECIDED
// RUN: loom-opt %s -loom-vmap=divergent=per-lane -split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=PERLANE
// RUN: loom-opt %s -loom-vmap=target=gpu -split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=GPU
// RUN: loom-opt %s -loom-vmap="masked-op-cost=76.11 one-pass-op-cost=76.11 gang-op-cost=76.11 gang-one-pass-op-cost=76.11 lane-op-cost=32 batched-lane-op-cost=32 divergence-per-doubling=0 carried-latency-cost=0" -split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO
// RUN: loom-opt %s -loom-vmap="masked-op-cost=1 one-pass-op-cost=1 gang-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=0 carried-latency-cost=0 gang-overhead=90 refill-op-cost=4" -split-input-file -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHEAP

// One remark per loop says how it is lowered and why, naming the carry and
// the argument that make its predicate differ per lane. This is the seed's
// MWE with its carries named by location.
// Each loop built masked records the decision (loom-localize-loops trusts
// only this mark).
// DECIDED-LABEL: func.func private @solve_vmap_bb(
// DECIDED: } attributes {loom.strategy = #loom.strategy<masked>}
// DECIDED: } attributes {loom.strategy = #loom.strategy<masked>}
// DECIDED-NEXT: return

// PERLANE: remark: loop is per-lane: predicate depends on carry #2 (count), batched through argument #1 (key); divergent=per-lane
// PERLANE: remark: loop is per-lane: it runs inside an enclosing per-lane loop, on one lane at a time
// GPU: remark: loop is per-lane: predicate depends on carry #2 (count), batched through argument #1 (key); target=gpu: one thread per lane, so no lane waits for another and no grid-wide any

// divergent=auto: the cost model weighs the two levels of divergence and the
// random numbers drawn lane by lane against SIMD width; a one-op loop pays
// more for its mask, selects and any than SIMD saves; with masked ops that
// cost 76 scalar ops (the constants are pinned here: refits move the
// defaults, docs/vmap.md) even a single level with a larger elementwise body
// over 64 lanes runs per lane, and with masked ops as cheap as scalar ones
// it runs masked; a batch of 8 fits one gang, so no gang is weighed. The
// remark ends with the counts the model used; the costs are the formula's
// (masked 76.11 x 15 x 8 + 32 x 2 x 64 = 13229, per-lane 64 x (9 + 32 x 2)).
// AUTO: remark: loop is per-lane: predicate depends on carry #2 (count), batched through argument #1 (key); cost model: masked 13229 > per-lane 4672 (2 divergent levels, 64 lanes assumed, SIMD width 8, divergence 1.000 a level); 9 ops, 2 lane by lane, 3 carries, a 10-cycle carried chain, masked in sweeps; gang 13410, gang with refill 20536 (width 32, divergence 1.000 a level): neither is cheaper
// AUTO: remark: loop is per-lane: predicate depends on argument #0 (n); cost model: masked 609 > per-lane 24 (1 divergent level, 8 lanes, SIMD width 8, divergence 1.000 a level); 3 ops, 0 lane by lane, 2 carries, a 4-cycle carried chain, masked in one pass{{$}}
// AUTO: remark: loop is per-lane: predicate depends on carry #0, batched through argument #0; cost model: masked 10351 > per-lane 832 (1 divergent level, 64 lanes, SIMD width 8, divergence 1.000 a level); 13 ops, 0 lane by lane, 1 carries, a 48-cycle carried chain, masked in one pass; gang 10532, gang with refill 12786 (width 32, divergence 1.000 a level): neither is cheaper
// CHEAP: remark: loop is masked: predicate depends on carry #0, batched through argument #0; cost model: masked 136 <= per-lane 832 (1 divergent level, 64 lanes, SIMD width 8, divergence 1.000 a level); 13 ops, 0 lane by lane, 1 carries, a 48-cycle carried chain, masked in one pass; gang 316, gang with refill 168 (width 32, divergence 1.000 a level): neither is cheaper

func.func @solve(%init: tensor<1xf32> {loom.name = "init"},
                 %key: tensor<2xi32> {loom.name = "key"}) -> tensor<1xf32> {
  %c0 = arith.constant 0 : index
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
  // expected-remark @+1 {{loop is masked: predicate depends on carry #2 (count), batched through argument #1 (key); divergent=masked}}
  %out:3 = scf.while (%t = %t0, %y = %init, %count = %count0)
      : (f32, tensor<1xf32>, i32) -> (f32, tensor<1xf32>, i32) {
    %go = arith.cmpi slt, %count, %five : i32
    scf.condition(%go) %t, %y, %count : f32, tensor<1xf32>, i32
  } do {
  ^bb0(%t: f32 loc("t"), %y: tensor<1xf32> loc("y"), %count: i32 loc("count")):
    %k = loom.random.key %count : i32
    %y1 = loom.random.uniform %k, %zero, %one : tensor<1xf32>
    // expected-remark @+1 {{loop is masked: predicate depends on carry #1 (yi), batched through argument #1 (key); divergent=masked}}
    %in:2 = scf.while (%ti = %t, %yi = %y1)
        : (f32, tensor<1xf32>) -> (f32, tensor<1xf32>) {
      %ys = tensor.extract %yi[%c0] : tensor<1xf32>
      %more = arith.cmpf olt, %ys, %ten : f32
      scf.condition(%more) %ti, %yi : f32, tensor<1xf32>
    } do {
    ^bb0(%ti: f32, %yi: tensor<1xf32> loc("yi")):
      %ys = tensor.extract %yi[%c0] : tensor<1xf32>
      %yn = arith.addf %ys, %dt : f32
      %tn = arith.addf %ti, %dt : f32
      %yt = tensor.from_elements %yn : tensor<1xf32>
      scf.yield %tn, %yt : f32, tensor<1xf32>
    }
    %next = arith.addi %count, %c1 : i32
    scf.yield %in#0, %in#1, %next : f32, tensor<1xf32>, i32
  }
  return %out#1 : tensor<1xf32>
}
func.func @main(%inits: tensor<?x1xf32>, %keys: tensor<?x2xi32>) -> tensor<?x1xf32> {
  %ys = loom.vmap @solve(%inits, %keys) in_axes [0, 0] out_axes [0]
      : (tensor<?x1xf32>, tensor<?x2xi32>) -> tensor<?x1xf32>
  return %ys : tensor<?x1xf32>
}

// -----

// A predicate every lane shares keeps the loop scalar; a loop that reads no
// per-lane value at all is cloned as it is.
func.func private @f(%x: f32, %n: i32) -> f32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{loop is uniform: its predicate is the same on every lane}}
  %r:2 = scf.while (%i = %c0, %acc = %x) : (i32, f32) -> (i32, f32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc : i32, f32
  } do {
  ^bb0(%i: i32, %acc: f32):
    %a = arith.mulf %acc, %acc : f32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %a : i32, f32
  }
  // expected-remark @+1 {{loop is uniform: it reads no per-lane value}}
  %m = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1 : i32
  }
  %mf = arith.sitofp %m : i32 to f32
  %s = arith.addf %r#1, %mf : f32
  return %s : f32
}
func.func @main(%xs: tensor<?xf32>, %n: i32) -> tensor<?xf32> {
  %r = loom.vmap @f(%xs, %n) in_axes [0, none] out_axes [0]
      : (tensor<?xf32>, i32) -> tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

// loom.strategy pins one loop whatever the pass option says; on a loop that
// is not divergent it has nothing to choose. On the loops loom-vmap builds it
// then records what was decided (the masked pin on a uniform loop becomes
// uniform), and the scalar original keeps no pin that a later pass could
// mistake for a decision.
// DECIDED-LABEL: func.func private @f(%arg0: i32 {loom.name = "n"}
// DECIDED-NOT: loom.strategy
// DECIDED-LABEL: func.func private @f_vmap_bu(%arg0: tensor<?xi32>
// DECIDED: scf.for
// DECIDED: scf.while
// DECIDED: } attributes {loom.strategy = #loom.strategy<per_lane>}
// DECIDED: } attributes {loom.strategy = #loom.strategy<uniform>}
// DECIDED-NEXT: return
func.func private @f(%n: i32 {loom.name = "n"}, %m: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-remark @+1 {{loop is per-lane: predicate depends on argument #0 (n); pinned by loom.strategy}}
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1 : i32
  } attributes {loom.strategy = #loom.strategy<per_lane>}
  // expected-remark @+1 {{loop is uniform: its predicate is the same on every lane; loom.strategy<masked> does not apply to a loop that is not divergent}}
  %s:2 = scf.while (%i = %c0, %a = %n) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %m : i32
    scf.condition(%go) %i, %a : i32, i32
  } do {
  ^bb0(%i: i32, %a: i32):
    %i1 = arith.addi %i, %c1 : i32
    %a1 = arith.addi %a, %i : i32
    scf.yield %i1, %a1 : i32, i32
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r, %s#1 : i32, i32
}
func.func @main(%ns: tensor<?xi32>, %m: i32) -> (tensor<?xi32>, tensor<?xi32>) {
  %r:2 = loom.vmap @f(%ns, %m) in_axes [0, none] out_axes [0, 0]
      : (tensor<?xi32>, i32) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}

// -----

// An scf.for whose trip count differs per lane is lowered as a while loop;
// one whose bounds every lane shares stays a for loop.
func.func private @f(%n: index {loom.name = "n"}, %x: f32) -> (f32, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  // expected-remark @+1 {{loop is masked: predicate depends on argument #0 (n); divergent=masked}}
  %a = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> f32 {
    %acc1 = arith.mulf %acc, %x : f32
    scf.yield %acc1 : f32
  }
  // expected-remark @+1 {{loop is uniform: its trip count is the same on every lane}}
  %b = scf.for %i = %c0 to %c4 step %c1 iter_args(%acc = %x) -> f32 {
    %acc1 = arith.addf %acc, %x : f32
    scf.yield %acc1 : f32
  }
  return %a, %b : f32, f32
}
func.func @main(%ns: tensor<8xindex>, %xs: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %r:2 = loom.vmap @f(%ns, %xs) in_axes [0, 0] out_axes [0, 0]
      : (tensor<8xindex>, tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A single divergent level whose body is a dozen elementwise ops: masked.
func.func private @poly(%x0: f32) -> f32 {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %third = arith.constant 0.33 : f32
  // expected-remark @+1 {{loop is masked: predicate depends on carry #0, batched through argument #0; divergent=masked}}
  %r = scf.while (%x = %x0) : (f32) -> f32 {
    %go = arith.cmpf ogt, %x, %one : f32
    scf.condition(%go) %x : f32
  } do {
  ^bb0(%x: f32):
    %a = arith.mulf %x, %half : f32
    %b = arith.mulf %a, %a : f32
    %c = arith.mulf %b, %third : f32
    %d = arith.addf %a, %c : f32
    %e = arith.subf %d, %b : f32
    %f = arith.mulf %e, %half : f32
    %g = arith.addf %f, %third : f32
    %h = arith.mulf %g, %a : f32
    %i = arith.subf %h, %c : f32
    %j = arith.maximumf %i, %half : f32
    %k = arith.minimumf %j, %x : f32
    %l = arith.mulf %k, %half : f32
    scf.yield %l : f32
  }
  return %r : f32
}
func.func @main(%xs: tensor<64xf32>) -> tensor<64xf32> {
  %r = loom.vmap @poly(%xs) in_axes [0] out_axes [0]
      : (tensor<64xf32>) -> tensor<64xf32>
  return %r : tensor<64xf32>
}
