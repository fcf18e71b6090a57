// The diffrax SDE's scalar `solve_sde` reproduces golden.md's per-lane step
// counts exactly for lanes 0-2: t1 = 1.0, dt0 = 0.05, keys
// split(PRNGKey(0), 300)[i], and a max_steps above the slowest lane's 284 so
// no lane is cut short.

// RUN: loom-run %examples/diffrax/sde.mlir --entry solve_sde --input y0=fill:0.1:1xf32 --input key=jax-split:0:300:0 --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:10000:i32 | FileCheck %s --check-prefix=LANE0
// LANE0:      {{^}}ys: 100x1xf32
// LANE0-NEXT: {{^}}num_steps: i32 min=93 max=93 mean=93 [93]{{$}}
// LANE0-NEXT: {{^}}num_accepted_steps: i32 min=61 max=61 mean=61 [61]{{$}}
// LANE0-NEXT: {{^}}num_rejected_steps: i32 min=32 max=32 mean=32 [32]{{$}}
// LANE0-NEXT: {{^}}result: i32 min=0 max=0 mean=0 [0]{{$}}

// RUN: loom-run %examples/diffrax/sde.mlir --entry solve_sde --input y0=fill:0.1:1xf32 --input key=jax-split:0:300:1 --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:10000:i32 | FileCheck %s --check-prefix=LANE1
// LANE1:      {{^}}num_steps: i32 min=75 max=75 mean=75 [75]{{$}}
// LANE1-NEXT: {{^}}num_accepted_steps: i32 min=52 max=52 mean=52 [52]{{$}}
// LANE1-NEXT: {{^}}num_rejected_steps: i32 min=23 max=23 mean=23 [23]{{$}}
// LANE1-NEXT: {{^}}result: i32 min=0 max=0 mean=0 [0]{{$}}

// RUN: loom-run %examples/diffrax/sde.mlir --entry solve_sde --input y0=fill:0.1:1xf32 --input key=jax-split:0:300:2 --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:10000:i32 | FileCheck %s --check-prefix=LANE2
// LANE2:      {{^}}num_steps: i32 min=80 max=80 mean=80 [80]{{$}}
// LANE2-NEXT: {{^}}num_accepted_steps: i32 min=56 max=56 mean=56 [56]{{$}}
// LANE2-NEXT: {{^}}num_rejected_steps: i32 min=24 max=24 mean=24 [24]{{$}}
// LANE2-NEXT: {{^}}result: i32 min=0 max=0 mean=0 [0]{{$}}

// golden.md gives lane 0's key; the same key from a .npy file gives the same
// lane, so jax-split:0:300:0 is that key.
// RUN: %python %S/npy.py write %t.key.npy '<u4' 2 2264043288 330151505
// RUN: loom-run %examples/diffrax/sde.mlir --entry solve_sde --input y0=fill:0.1:1xf32 --input key=%t.key.npy --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:10000:i32 | FileCheck %s --check-prefix=LANE0
