// The cost model's structure decides, with every constant pinned (the
// defaults are fitted: docs/vmap.md), and the remark gives each cost and the
// counts and divergences it comes from, so a wrong formula fails here.
// RUN: loom-opt %s -split-input-file -loom-vmap="masked-op-cost=12 gang-op-cost=4 divergence-per-doubling=0 gang-overhead=16 refill-op-cost=8 carried-latency-cost=0" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=SWEEPS
// RUN: loom-opt %s -split-input-file -loom-vmap="masked-op-cost=12 gang-op-cost=4 divergence-per-doubling=0.5 gang-overhead=16 refill-op-cost=0.5 carried-latency-cost=0" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOCKSTEP
// RUN: loom-opt %s -split-input-file -loom-vmap="one-pass-op-cost=2 gang-one-pass-op-cost=2 divergence-per-doubling=0 lane-op-cost=1 batched-lane-op-cost=8 carried-latency-cost=1 gang-overhead=16 refill-op-cost=8 vector-libm-ops=0" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=LANES
// RUN: loom-opt %s -split-input-file -loom-vmap="one-pass-op-cost=2 gang-one-pass-op-cost=2 divergence-per-doubling=0 lane-op-cost=1 batched-lane-op-cost=8 carried-latency-cost=1 gang-overhead=16 refill-op-cost=8 vector-libm-ops=14" -mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=VSIN

// A branch the masked forms cannot if-convert (a call in it stands for any
// op that is not elementwise arithmetic): masked in sweeps, 8 ops (the
// call and its callee's add among them), 2 carries, so 104 vector ops on 64
// lanes at SIMD width 8. Masked's B-lane buffers cost 12 an op (1248), a
// gang's 4 (416, plus 16 for each of its 2 gangs), per-lane 64 x 8: the
// gang wins where one op cost for both could never prefer it.
// SWEEPS: remark: loop is gang (width 32): {{.*}}; cost model: masked 1248 > per-lane 512 (1 divergent level, 64 lanes, SIMD width 8, divergence 1.000 a level); 8 ops, 0 lane by lane, 2 carries, a 1-cycle carried chain, masked in sweeps; gang 448, gang with refill 928 (width 32, divergence 1.000 a level): gang is cheapest

// Divergence grows with the lanes run in lock-step, D(n) = 1 + 0.5 log2(n):
// 4 for masked's 64 lanes, 3.5 for a gang of 32, none at refill's outermost
// level, whose 8 per carry and trip add 2 x 8 x 0.5 vector ops: refill
// 4 x (104 + 8) = 448, gang 3.5 x 416 + 32 = 1488, masked 4 x 1248 = 4992.
// LOCKSTEP: remark: loop is gang (width 32, refill): {{.*}}; cost model: masked 4992 > per-lane 512 (1 divergent level, 64 lanes, SIMD width 8, divergence 4.000 a level); 8 ops, 0 lane by lane, 2 carries, a 1-cycle carried chain, masked in sweeps; gang 1488, gang with refill 448 (width 32, divergence 3.500 a level): gang with refill is cheapest

func.func private @add(%a: i32, %b: i32) -> i32 {
  %s = arith.addi %a, %b : i32
  return %s : i32
}

func.func @branchy(%n: i32 {loom.name = "n"}) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%i = %n, %acc = %zero) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %i, %zero : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %odd = arith.andi %i, %one : i32
    %p = arith.cmpi eq, %odd, %one : i32
    %v = scf.if %p -> i32 {
      %a = func.call @add(%acc, %i) : (i32, i32) -> i32
      scf.yield %a : i32
    } else {
      %s = arith.subi %acc, %one : i32
      scf.yield %s : i32
    }
    %i1 = arith.subi %i, %one : i32
    scf.yield %i1, %v : i32, i32
  }
  return %r#1 : i32
}

func.func @main(%ns: tensor<64xi32>) -> tensor<64xi32> {
  %r = loom.vmap @branchy(%ns) in_axes [0] out_axes [0] : (tensor<64xi32>) -> tensor<64xi32>
  return %r : tensor<64xi32>
}

// -----

// Two loops with a libm call each and the same counts but for their carried
// chains. In @lsum the log1p is off the chain (s and k each wait 4 cycles, an
// addf), so a per-lane trip costs its 3 ops and the call, 64 x 4 = 256, while
// the batched forms pay 8 a lane for the call on every lane of the
// lock-step: masked 2 x 64 + 8 x 64 = 640. In @orbit the sin is on the chain
// (sin 20, absf 1, two addf 4: 29 cycles a trip), the per-lane trip waits for
// it, 64 x 29 = 1856, and masked, whose lanes overlap, wins.
// LANES: remark: loop is per-lane: {{.*}}; cost model: masked 640 > per-lane 256 (1 divergent level, 64 lanes, SIMD width 8, divergence 1.000 a level); 3 ops, 1 lane by lane, 2 carries, a 4-cycle carried chain, masked in one pass; gang 672, gang with refill 896 (width 32, divergence 1.000 a level): neither is cheaper
// LANES: remark: loop is masked: {{.*}}; cost model: masked 640 <= per-lane 1856 (1 divergent level, 64 lanes, SIMD width 8, divergence 1.000 a level); 4 ops, 1 lane by lane, 1 carries, a 29-cycle carried chain, masked in one pass; gang 672, gang with refill 768 (width 32, divergence 1.000 a level): neither is cheaper
// Where the lowering computes an f32 sin or log1p in vector arithmetic
// (vector-libm-ops), the batched forms pay it as 14 vector ops instead of 8
// a lane; per-lane still calls libm. @lsum: masked 2 x (3 + 14 + 2 + 3) x 8
// = 352, still above per-lane's 256; @orbit: masked 2 x (4 + 14 + 1 + 3) x 8
// = 352.
// VSIN: remark: loop is per-lane: {{.*}}; cost model: masked 352 > per-lane 256 {{.*}}; 3 ops, 0 lane by lane, 1 libm calls in vector arithmetic, 2 carries,
// VSIN: remark: loop is masked: {{.*}}; cost model: masked 352 <= per-lane 1856 (1 divergent level, 64 lanes, SIMD width 8, divergence 1.000 a level); 4 ops, 0 lane by lane, 1 libm calls in vector arithmetic, 1 carries, a 29-cycle carried chain, masked in one pass; gang 384, gang with refill 480 (width 32,

func.func @lsum(%target: f32 {loom.name = "target"}) -> f32 {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %r:2 = scf.while (%s = %zero, %k = %zero) : (f32, f32) -> (f32, f32) {
    %go = arith.cmpf olt, %s, %target : f32
    scf.condition(%go) %s, %k : f32, f32
  } do {
  ^bb0(%s: f32, %k: f32):
    %l = math.log1p %k : f32
    %s1 = arith.addf %s, %l : f32
    %k1 = arith.addf %k, %one : f32
    scf.yield %s1, %k1 : f32, f32
  }
  return %r#0 : f32
}

func.func @orbit(%target: f32 {loom.name = "target"}) -> f32 {
  %zero = arith.constant 0.0 : f32
  %base = arith.constant 0.5 : f32
  %r = scf.while (%x = %zero) : (f32) -> f32 {
    %go = arith.cmpf olt, %x, %target : f32
    scf.condition(%go) %x : f32
  } do {
  ^bb0(%x: f32):
    %s = math.sin %x : f32
    %a = math.absf %s : f32
    %step = arith.addf %a, %base : f32
    %x1 = arith.addf %x, %step : f32
    scf.yield %x1 : f32
  }
  return %r : f32
}

func.func @main(%ts: tensor<64xf32>) -> (tensor<64xf32>, tensor<64xf32>) {
  %a = loom.vmap @lsum(%ts) in_axes [0] out_axes [0] : (tensor<64xf32>) -> tensor<64xf32>
  %b = loom.vmap @orbit(%ts) in_axes [0] out_axes [0] : (tensor<64xf32>) -> tensor<64xf32>
  return %a, %b : tensor<64xf32>, tensor<64xf32>
}
