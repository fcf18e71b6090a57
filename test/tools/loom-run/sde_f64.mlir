// The float64 (x64) diffrax SDE, python-free-examples/diffrax/sde_f64.mlir,
// through loom-run: it compiles, runs the vmapped @main with every
// EQX_ON_ERROR mode, and gives the same bits for any shard count. There is
// no JAX x64 run to compare with, so the step counts below are Loom's own,
// pinned so that a change in the float64 random numbers or in the solver
// shows. What backs them: RandomJitTest checks the float64 normals against
// JAX's formulas and published 64-bit words, FidelityTest the moments of
// 10^4 paths against the exact ones. Per-lane lowering throughout: the masked
// float64 SDE takes minutes to compile.

// golden.md's first three keys of split(PRNGKey(0), 300), as in on_error.mlir.
// RUN: %python %S/npy.py write %t.keys.npy '<u4' 3x2 2264043288 330151505 945335751 2658791920 131572300 639162889
// DEFINE: %{sde} = %examples/diffrax/sde_f64.mlir --divergent per-lane --input inits=fill:0.1:3x1xf64 --input keys=%t.keys.npy --input t1=fill:1.0:f64 --input dt0=fill:0.05:f64

// The seed's tolerances (the defaults). Every path starts at y0 = 0.1
// exactly, in float64.
// RUN: rm -rf %t.seed
// RUN: loom-run %{sde} --input max_steps=fill:10000:i32 --output-dir %t.seed | FileCheck %s --check-prefix=SEED
// SEED:      {{^}}ys: 3x100x1xf64 {{.*}}
// SEED-NEXT: {{^}}num_steps: 3xi32 min=75 max=98 mean=83 [98, 76, 75]{{$}}
// SEED-NEXT: {{^}}num_accepted_steps: 3xi32 min=53 max=60 mean=55.6666667 [60, 54, 53]{{$}}
// SEED-NEXT: {{^}}num_rejected_steps: 3xi32 min=22 max=38 mean=27.3333333 [38, 22, 22]{{$}}
// SEED-NEXT: {{^}}result: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}
// RUN: %python %S/npy.py show %t.seed/ys.npy --rtol 0 0=0.1 100=0.1 200=0.1 | FileCheck %s --check-prefix=Y0
// Y0:      descr=<f8 fortran_order=False shape=(3, 100, 1)
// Y0-NEXT: [0] = 0.1 ok
// Y0-NEXT: [100] = 0.1 ok
// Y0-NEXT: [200] = 0.1 ok

// rtol 1e-5, atol 1e-7, as FidelityTest runs it: about 1100 steps a path,
// and the same bits on 1, 2 and 3 shards.
// RUN: rm -rf %t.1 %t.2 %t.3
// RUN: loom-run %{sde} --input max_steps=fill:100000:i32 --input rtol=fill:1e-5:f64 --input atol=fill:1e-7:f64 --output-dir %t.1 | FileCheck %s --check-prefix=TIGHT
// RUN: loom-run %{sde} --input max_steps=fill:100000:i32 --input rtol=fill:1e-5:f64 --input atol=fill:1e-7:f64 --shards 2 --output-dir %t.2 | FileCheck %s --check-prefix=TIGHT
// RUN: loom-run %{sde} --input max_steps=fill:100000:i32 --input rtol=fill:1e-5:f64 --input atol=fill:1e-7:f64 --shards 3 --output-dir %t.3 | FileCheck %s --check-prefix=TIGHT
// RUN: cmp %t.1/ys.npy %t.2/ys.npy
// RUN: cmp %t.1/ys.npy %t.3/ys.npy
// TIGHT:      {{^}}num_steps: 3xi32 min=1064 max=1291 mean=1165.33333 [1291, 1064, 1141]{{$}}
// TIGHT:      {{^}}result: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}

// The scalar entry on lane 1's key alone gives @main's lane 1.
// RUN: loom-run %examples/diffrax/sde_f64.mlir --entry solve_sde --input y0=fill:0.1:1xf64 --input key=jax-split:0:300:1 --input t1=fill:1.0:f64 --input dt0=fill:0.05:f64 --input max_steps=fill:100000:i32 --input rtol=fill:1e-5:f64 --input atol=fill:1e-7:f64 | FileCheck %s --check-prefix=LANE1
// LANE1: {{^}}num_steps: i32 min=1064 max=1064 mean=1064 [1064]{{$}}

// EQX_ON_ERROR with max_steps 90: lane 0 (98 steps) fails. off keeps its
// unreached slots at +inf; nan turns every lane's floats to float64 NaN and
// every integer to INT32_MAX; raise is the caller's, naming the lane.
// RUN: rm -rf %t.off %t.nan
// RUN: loom-run %{sde} --input max_steps=fill:90:i32 --input on_error=fill:2:i32 --output-dir %t.off | FileCheck %s --check-prefix=OFF
// OFF: {{^}}result: 3xi32 min=0 max=1 mean=0.333333333 [1, 0, 0]{{$}}
// RUN: %python %S/npy.py show %t.off/ys.npy 99 199 | FileCheck %s --check-prefix=OFFYS
// OFFYS:      [99] = inf
// OFFYS-NEXT: [199] = {{0\.[0-9]+$}}
// RUN: loom-run %{sde} --input max_steps=fill:90:i32 --input on_error=fill:1:i32 --output-dir %t.nan | FileCheck %s --check-prefix=NAN
// NAN: {{^}}result: 3xi32 min=2.14748365e+09 max=2.14748365e+09 {{.*}}
// RUN: %python %S/npy.py show %t.nan/ys.npy 0 150 299 | FileCheck %s --check-prefix=NANYS
// NANYS:      descr=<f8
// NANYS-NEXT: [0] = nan
// NANYS-NEXT: [150] = nan
// NANYS-NEXT: [299] = nan
// RUN: not loom-run %{sde} --input max_steps=fill:90:i32 --raise-on=result 2>&1 | FileCheck %s --check-prefix=RAISE
// RAISE: {{^}}loom-run: 1 of 3 lanes failed: 0 (result=1); 1 = max_steps_reached: The maximum number of solver steps was reached. Try increasing `max_steps`.{{$}}
