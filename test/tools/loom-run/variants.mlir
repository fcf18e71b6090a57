// Timed variants (docs/vmap.md): under divergent=auto this nest is compiled
// both as a lock-step lowering and as a gang with refill, and each shard runs
// the primary on its first call, the alternative on its second, and from its
// fifth on the faster. Every call must give per-lane's bits, whichever ran.
// (If the cost model stops scoring the two close here, IR fails first: pick
// a nest it does score close, so that the rest still tests the variants.)

// RUN: loom-opt %s --loom-pipeline="shards=2" -mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=IR
// IR: remark: loop is {{.*}} so gang with refill is compiled too
// IR: loom.variant_begin
// IR: loom.variant_end

// RUN: %python %S/npy.py write %t.targets.npy '<f4' 48 1.0 36.89 33.98 31.07 28.16 25.25 22.34 19.43 16.52 13.61 10.7 7.79 4.88 1.97 37.86 34.95 32.04 29.13 26.22 23.31 20.4 17.49 14.58 11.67 8.76 5.85 2.94 38.83 35.92 33.01 30.1 27.19 24.28 21.37 18.46 15.55 12.64 9.73 6.82 3.91 1.0 36.89 33.98 31.07 28.16 25.25 22.34 19.43
// RUN: %python %S/npy.py write %t.scales.npy '<f4' 48 0.05 0.7 0.55 0.4 0.25 0.1 0.75 0.6 0.45 0.3 0.15 0.8 0.65 0.5 0.35 0.2 0.05 0.7 0.55 0.4 0.25 0.1 0.75 0.6 0.45 0.3 0.15 0.8 0.65 0.5 0.35 0.2 0.05 0.7 0.55 0.4 0.25 0.1 0.75 0.6 0.45 0.3 0.15 0.8 0.65 0.5 0.35 0.2
// RUN: rm -rf %t.ref %t.1 %t.2 %t.5 %t.s2 %t.s3 %t.off
// RUN: loom-run %s --divergent per-lane --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.ref
// The outputs are those of the last call: the primary's, the
// alternative's, then the chosen one's.
// RUN: loom-run %s --repeat 1 --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.1
// RUN: loom-run %s --repeat 2 --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.2
// RUN: loom-run %s --repeat 5 --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.5
// RUN: loom-run %s --repeat 2 --shards 2 --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.s2
// RUN: loom-run %s --repeat 5 --shards 3 --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.s3
// RUN: loom-run %s --adaptive=0 --input targets=%t.targets.npy --input scales=%t.scales.npy --output-dir %t.off
// RUN: cmp %t.ref/sum.npy %t.1/sum.npy && cmp %t.ref/n.npy %t.1/n.npy
// RUN: cmp %t.ref/sum.npy %t.2/sum.npy && cmp %t.ref/n.npy %t.2/n.npy
// RUN: cmp %t.ref/sum.npy %t.5/sum.npy && cmp %t.ref/n.npy %t.5/n.npy
// RUN: cmp %t.ref/sum.npy %t.s2/sum.npy && cmp %t.ref/n.npy %t.s2/n.npy
// RUN: cmp %t.ref/sum.npy %t.s3/sum.npy && cmp %t.ref/n.npy %t.s3/n.npy
// RUN: cmp %t.ref/sum.npy %t.off/sum.npy && cmp %t.ref/n.npy %t.off/n.npy
// --stats counts the loops of both variants: on the first call those of
// the alternative do not run, on two calls both have.
// RUN: loom-run %s --repeat 1 --stats --input targets=%t.targets.npy --input scales=%t.scales.npy | FileCheck %s --check-prefix=STATS1
// STATS1: iterations per shard per call [0]
// And each shard's choice, with the fastest run of each variant so far:
// none yet after one call, both after two, a choice from the fifth on.
// STATS1: variants at {{.*}}variants.mlir:{{[0-9]+}}:{{[0-9]+}}: primary masked, alternative gang with refill (width 32); kept per shard [undecided]; fastest run per shard in CPU time, primary [{{[0-9]+\.[0-9]+}}] and alternative [-] ms{{$}}
// RUN: loom-run %s --repeat 2 --stats --input targets=%t.targets.npy --input scales=%t.scales.npy | FileCheck %s --check-prefix=STATS2
// STATS2-COUNT-4: lane utilisation
// STATS2-NOT: per call [0]
// STATS2: collectives per shard per call
// STATS2-NEXT: kept per shard [undecided]; fastest run per shard in CPU time, primary [{{[0-9]+\.[0-9]+}}] and alternative [{{[0-9]+\.[0-9]+}}] ms{{$}}
// RUN: loom-run %s --repeat 5 --shards 2 --stats --input targets=%t.targets.npy --input scales=%t.scales.npy | FileCheck %s --check-prefix=STATS5
// Each loop says which variant it is in.
// STATS5-DAG: (masked, in variant masked): iterations
// STATS5-DAG: (masked, in variant gang with refill (width 32)): iterations
// STATS5: kept per shard [{{(primary|alternative), (primary|alternative)}}]; fastest run per shard in CPU time, primary [{{[0-9.]+, [0-9.]+}}] and alternative [{{[0-9.]+, [0-9.]+}}] ms{{$}}

// The reference is the scalar function's (here as Python computes it in
// f64: the step counts are far from any rounding boundary), and the lanes
// diverge: 7, 26 and 28 outer steps.
// RUN: %python %S/npy.py show %t.ref/n.npy 0=7 1=26 2=28 | FileCheck %s --check-prefix=REF
// RUN: %python %S/npy.py show %t.ref/sum.npy --rtol 1e-5 0=1.00229575 1=37.7305200 2=34.3970470 | FileCheck %s --check-prefix=REF
// REF: shape=(48,)
// REF-COUNT-3: ok

// An outer loop until a running sum of log1p terms passes a per-lane target,
// each outer step an inner loop of 1 to 3 steps (benchmarks/divergent's
// log1p_nest).
func.func @lsum(%target: f32, %scale: f32) -> (f32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.while (%s = %zero, %n = %c0) : (f32, i32) -> (f32, i32) {
    %go = arith.cmpf olt, %s, %target : f32
    scf.condition(%go) %s, %n : f32, i32
  } do {
  ^bb0(%s: f32, %n: i32):
    %rem = arith.remsi %n, %c3 : i32
    %k = arith.addi %rem, %c1 : i32
    %in:2 = scf.while (%j = %c0, %t = %s) : (i32, f32) -> (i32, f32) {
      %more = arith.cmpi slt, %j, %k : i32
      scf.condition(%more) %j, %t : i32, f32
    } do {
    ^bb0(%j: i32, %t: f32):
      %jf = arith.sitofp %j : i32 to f32
      %a = arith.mulf %jf, %scale : f32
      %b = arith.addf %a, %scale : f32
      %l = math.log1p %b : f32
      %t1 = arith.addf %t, %l : f32
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1, %t1 : i32, f32
    }
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %in#1, %n1 : f32, i32
  }
  return %r#0, %r#1 : f32, i32
}
func.func @main(%targets: tensor<?xf32> {loom.name = "targets"}, %scales: tensor<?xf32> {loom.name = "scales"})
    -> (tensor<?xf32> {loom.name = "sum"}, tensor<?xi32> {loom.name = "n"}) {
  %r:2 = loom.vmap @lsum(%targets, %scales) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xf32>, tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}
