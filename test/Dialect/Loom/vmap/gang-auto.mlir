// divergent=auto weighs gang and gang with refill beside masked and
// per-lane, for the outermost divergent loop only, and its remark gives all
// four costs. The constants here make each side win in turn (pinned: the
// defaults are fitted, docs/vmap.md).
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=100 gang-one-pass-op-cost=100 divergence-per-doubling=0 carried-latency-cost=0 gang-overhead=1e6 refill-op-cost=1e6" -mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=0 refill-op-cost=1000" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=GANG
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=1000 refill-op-cost=0" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=REFILL
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=0 refill-op-cost=50" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=VARIANTS
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=0 refill-op-cost=20" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=SWITCH
// RUN: loom-opt %s -loom-vmap="adaptive=0 one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=0 refill-op-cost=50" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=NO-VARIANTS
// RUN: loom-opt %s -loom-vmap="one-pass-op-cost=1 gang-overhead=0 gang-width=64 divergence-per-doubling=0 carried-latency-cost=0" -mlir-print-op-on-diagnostic=false 2>&1 >/dev/null | FileCheck %s --check-prefix=FITS

// 6 ops and 2 carries over 64 lanes at SIMD width 8: 88 vector ops.
// DEFAULT: remark: loop is per-lane: predicate depends on carry #0 (initially n), batched through argument #0 (n); cost model: masked 8800 > per-lane 384 (2 divergent levels, 64 lanes, SIMD width 8, divergence 1.000 a level); 6 ops, 0 lane by lane, 2 carries, a 1-cycle carried chain, masked in one pass; gang 2008800, gang with refill 1600008800 (width 32, divergence 1.000 a level): neither is cheaper

// D(n) = 1 + log2(n): 7 a level for masked's 64 lanes (49 x 88), 6 for a
// gang's 32 (36 x 88), and refill's outermost level runs without it
// (6 x (88 + 1000 x 2 x 8)); per-lane waits 100 a cycle of its chain.
// GANG: remark: loop is gang (width 32): {{.*}}; cost model: masked 4312 <= per-lane 6400 (2 divergent levels, 64 lanes, SIMD width 8, divergence 7.000 a level); 6 ops, 0 lane by lane, 2 carries, a 1-cycle carried chain, masked in one pass; gang 3168, gang with refill 96528 (width 32, divergence 6.000 a level): gang is cheapest
// GANG: remark: loop is masked: it runs inside a gang of 32 lanes
// GANG-LABEL: func.func private @nest_vmap_b_64(
// GANG: scf.for
// GANG: func.call @nest_gang_vmap_bu_32_masked_gang(

// REFILL: remark: loop is gang (width 32, refill): {{.*}}; gang 5168, gang with refill 528 (width 32, divergence 6.000 a level): gang with refill is cheapest
// REFILL-LABEL: func.func private @nest_vmap_b_64(
// REFILL-NOT: func.call @nest_gang_vmap_bu_32_masked_gang(
// REFILL: scf.while

// Where refill costs within adaptive-factor (4) of the cheapest lock-step
// lowering, both are compiled, the cheaper as the primary (the else branch),
// and the runtime picks one per shard: 6 x (88 + 50 x 2 x 8) = 5328 against
// gang's 3168.
// VARIANTS: remark: loop is gang (width 32): {{.*}}; gang 3168, gang with refill 5328 (width 32, divergence 6.000 a level): gang is cheapest; within 4.00x of each other, so gang with refill is compiled too, and each shard times both on its first calls
// VARIANTS-LABEL: func.func private @nest_vmap_b_64(
// VARIANTS: %[[ALT:.*]] = loom.variant_begin {names = ["gang (width 32)", "gang with refill (width 32)"]}
// VARIANTS-NEXT: scf.if %[[ALT]]
// VARIANTS: scf.while
// VARIANTS: } else {
// VARIANTS: scf.for
// VARIANTS: func.call @nest_gang_vmap_bu_32_masked_gang(
// VARIANTS: loom.variant_end %[[ALT]]

// Where refill is the cheaper, 6 x (88 + 20 x 2 x 8) = 2448 against gang's
// 3168, one loop runs both: the refill loop, whose slots take lanes one by
// one while the switch is on, and otherwise all at once when none is
// active (the 32 bits of every slot), which is lock-step gangs.
// SWITCH: remark: loop is gang (width 32, refill): {{.*}}; gang 3168, gang with refill 2448 (width 32, divergence 6.000 a level): gang with refill is cheapest; within 4.00x of each other, so the loop can also run lock-step (refill switched off at run time), and each shard times both on its first calls
// SWITCH-LABEL: func.func private @nest_vmap_b_64(
// SWITCH: %[[ALT:.*]] = loom.variant_begin {names = ["gang with refill (width 32)", "gang (width 32)"]}
// SWITCH-NOT: scf.if %[[ALT]]
// SWITCH: %[[ON:.*]] = arith.xori %[[ALT]], %true
// SWITCH-NOT: func.call @nest_gang_vmap_bu_32_masked_gang(
// SWITCH: scf.while
// SWITCH: %[[GOING:.*]] = loom.any
// SWITCH: %[[EMPTY:.*]] = arith.xori %[[GOING]], %{{.*}} : i1
// SWITCH: %[[WHEN:.*]] = arith.ori %[[ON]], %[[EMPTY]] : i1
// SWITCH: arith.andi %{{.*}}, %[[WHEN]] : i1
// SWITCH: arith.select %[[ON]], %{{.*}}, %c4294967295_i64 : i64
// SWITCH: } attributes {loom.lane_mask = 3 : i64, loom.strategy = #loom.strategy<gang>}
// SWITCH-NOT: scf.while
// SWITCH: loom.variant_end %[[ALT]]

// adaptive=0 keeps the single cheapest lowering.
// NO-VARIANTS: gang 3168, gang with refill 5328 (width 32, divergence 6.000 a level): gang is cheapest{{$}}
// NO-VARIANTS-NOT: loom.variant_begin
// NO-VARIANTS-LABEL: func.func private @nest_vmap_b_64(
// NO-VARIANTS-NOT: loom.variant_begin
// NO-VARIANTS: func.call @nest_gang_vmap_bu_32_masked_gang(

// A batch that fits one gang leaves nothing to weigh: no gang part.
// FITS: cost model: masked 88 <= per-lane 384 (2 divergent levels, 64 lanes, SIMD width 8, divergence 1.000 a level); 6 ops, 0 lane by lane, 2 carries, a 1-cycle carried chain, masked in one pass{{$}}

func.func @nest(%n: i32 {loom.name = "n"}) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%i = %n, %acc = %zero) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %i, %zero : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %inner = scf.while (%j = %i) : (i32) -> i32 {
      %more = arith.cmpi sgt, %j, %zero : i32
      scf.condition(%more) %j : i32
    } do {
    ^bb0(%j: i32):
      %j1 = arith.subi %j, %one : i32
      scf.yield %j1 : i32
    }
    %i1 = arith.subi %i, %one : i32
    %acc1 = arith.addi %acc, %i : i32
    scf.yield %i1, %acc1 : i32, i32
  }
  return %r#1 : i32
}

func.func @main(%ns: tensor<64xi32>) -> tensor<64xi32> {
  %r = loom.vmap @nest(%ns) in_axes [0] out_axes [0] : (tensor<64xi32>) -> tensor<64xi32>
  return %r : tensor<64xi32>
}
