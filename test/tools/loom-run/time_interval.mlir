// The diffrax programs on a time interval of no length and on one that dt0
// points away from, under both divergent-loop lowerings and on 1 and 2
// shards (diffrax-solver-spec.md §0).
//
// t1 == t0: no step is taken and diffrax saves y0 at every ts (all equal to
// t0), with result 0 (successful). Lane inits 0.25, 0.5 and 0.75, so
// min/max/mean say every slot of every lane holds its own y0, none +inf.
//
// (t1 - t0) * dt0 < 0: diffrax raises "Must have (t1 - t0) * dt0 >= 0"
// before solving. A compiled call cannot raise, so every lane takes no step
// and returns result 2 (dt0_wrong_sign), which --raise-on reports with
// diffrax's message.

// RUN: %python %S/npy.py write %t.y32.npy '<f4' 3x1 0.25 0.5 0.75
// RUN: %python %S/npy.py write %t.y64.npy '<f8' 3x1 0.25 0.5 0.75
// DEFINE: %{ode} = %examples/diffrax/ode.mlir --input inits=%t.y32.npy
// DEFINE: %{ode64} = %examples/diffrax/ode_f64.mlir --input inits=%t.y64.npy
// DEFINE: %{sde} = %examples/diffrax/sde.mlir --input inits=%t.y32.npy --input keys=jax-split:0:3
// DEFINE: %{sde64} = %examples/diffrax/sde_f64.mlir --input inits=%t.y64.npy --input keys=jax-split:0:3

// t0 == t1 == 0.1 (t1's default).
// RUN: loom-run %{ode} --input t0=fill:0.1:f32 --divergent masked --shards 1 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{ode} --input t0=fill:0.1:f32 --divergent per-lane --shards 2 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{ode} --input t0=fill:0.1:f32 --divergent masked --shards 2 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{ode} --input t0=fill:0.1:f32 --divergent per-lane --shards 1 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{sde} --input t0=fill:0.1:f32 --divergent masked --shards 1 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{sde} --input t0=fill:0.1:f32 --divergent per-lane --shards 2 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{sde} --input t0=fill:0.1:f32 --divergent masked --shards 2 | FileCheck %s --check-prefix=EMPTY32
// RUN: loom-run %{sde} --input t0=fill:0.1:f32 --divergent per-lane --shards 1 | FileCheck %s --check-prefix=EMPTY32
// EMPTY32:      {{^}}ys: 3x100x1xf32 min=0.25 max=0.75 mean=0.5 [0.25, 0.25, 0.25, 0.25, ...]{{$}}
// EMPTY32-NEXT: {{^}}num_steps: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}
// EMPTY32:      {{^}}result: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}
// RUN: loom-run %{ode64} --input t0=fill:0.1:f64 --divergent masked --shards 1 | FileCheck %s --check-prefix=EMPTY64
// RUN: loom-run %{ode64} --input t0=fill:0.1:f64 --divergent per-lane --shards 2 | FileCheck %s --check-prefix=EMPTY64
// RUN: loom-run %{sde64} --input t0=fill:0.1:f64 --divergent masked --shards 2 | FileCheck %s --check-prefix=EMPTY64
// RUN: loom-run %{sde64} --input t0=fill:0.1:f64 --divergent per-lane --shards 1 | FileCheck %s --check-prefix=EMPTY64
// EMPTY64:      {{^}}ys: 3x100x1xf64 min=0.25 max=0.75 mean=0.5 [0.25, 0.25, 0.25, 0.25, ...]{{$}}
// EMPTY64-NEXT: {{^}}num_steps: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}
// EMPTY64:      {{^}}result: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}

// t1 = 0.1 < t0 = 0.5 with dt0 > 0: result 2 on every lane, no step, the
// slots left +inf (EQX_ON_ERROR=off, on_error 2).
// RUN: loom-run %{ode} --input t0=fill:0.5:f32 --input on_error=fill:2:i32 --divergent masked --shards 1 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{ode} --input t0=fill:0.5:f32 --input on_error=fill:2:i32 --divergent per-lane --shards 2 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{ode64} --input t0=fill:0.5:f64 --input on_error=fill:2:i32 --divergent masked --shards 2 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{ode64} --input t0=fill:0.5:f64 --input on_error=fill:2:i32 --divergent per-lane --shards 1 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{sde} --input t0=fill:0.5:f32 --input on_error=fill:2:i32 --divergent masked --shards 2 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{sde} --input t0=fill:0.5:f32 --input on_error=fill:2:i32 --divergent per-lane --shards 1 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{sde64} --input t0=fill:0.5:f64 --input on_error=fill:2:i32 --divergent masked --shards 1 | FileCheck %s --check-prefix=BACK
// RUN: loom-run %{sde64} --input t0=fill:0.5:f64 --input on_error=fill:2:i32 --divergent per-lane --shards 2 | FileCheck %s --check-prefix=BACK
// BACK:      {{^}}ys: 3x100x1xf{{32|64}} min=inf max=inf mean=inf {{.*}}
// BACK-NEXT: {{^}}num_steps: 3xi32 min=0 max=0 mean=0 [0, 0, 0]{{$}}
// BACK:      {{^}}result: 3xi32 min=2 max=2 mean=2 [2, 2, 2]{{$}}

// raise (the default): --raise-on names the lanes and gives diffrax's
// message, one line. A negative dt0 with t1 > t0 is the same mistake.
// RUN: not loom-run %{ode} --input t0=fill:0.5:f32 --divergent masked --shards 2 --raise-on result 2>&1 | FileCheck %s --check-prefix=RAISE
// RUN: not loom-run %{ode64} --input dt0=fill:-0.01:f64 --divergent per-lane --shards 1 --raise-on result 2>&1 | FileCheck %s --check-prefix=RAISE
// RUN: not loom-run %{sde} --input dt0=fill:-0.05:f32 --divergent per-lane --shards 2 --raise-on result 2>&1 | FileCheck %s --check-prefix=RAISE
// RUN: not loom-run %{sde64} --input t0=fill:0.5:f64 --divergent masked --shards 1 --raise-on result > %t.raise 2>&1
// RUN: FileCheck %s --check-prefix=RAISE < %t.raise && count 1 < %t.raise
// RAISE: {{^}}loom-run: 3 of 3 lanes failed: 0 (result=2), 1 (result=2), 2 (result=2); 2 = dt0_wrong_sign: Must have (t1 - t0) * dt0 >= 0{{$}}

// nan: any failed lane poisons the batch, whatever its code.
// RUN: loom-run %{sde} --input t0=fill:0.5:f32 --input on_error=fill:1:i32 --shards 2 | FileCheck %s --check-prefix=NAN
// NAN: {{^}}ys: 3x100x1xf32 min=nan max=nan {{.*}}
// NAN: {{^}}result: 3xi32 min=2.14748365e+09 max=2.14748365e+09 {{.*}}
