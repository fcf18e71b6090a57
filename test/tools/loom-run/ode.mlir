// The diffrax ODE's scalar `solve_ode` reproduces both rows of golden.md's
// ODE table through loom-run: step counts exactly, saved values within 1e-6
// relative (they go through sin, where libms may differ in the last ulp).

// golden.md row 1: t1 = 1.0, dt0 = 0.05 (the program's defaults are row 2).
// RUN: rm -rf %t.long
// RUN: loom-run %examples/diffrax/ode.mlir --entry solve_ode --input y0=fill:0.1:1xf32 --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --output-dir %t.long | FileCheck %s --check-prefix=LONG
// LONG:      {{^}}ys: 100x1xf32
// LONG-NEXT: {{^}}num_steps: i32 min=54 max=54 mean=54 [54]{{$}}
// LONG-NEXT: {{^}}num_accepted_steps: i32 min=53 max=53 mean=53 [53]{{$}}
// LONG-NEXT: {{^}}num_rejected_steps: i32 min=1 max=1 mean=1 [1]{{$}}
// LONG-NEXT: {{^}}result: i32 min=0 max=0 mean=0 [0]{{$}}
// RUN: %python %S/npy.py show %t.long/ys.npy 0=0.10000000149011612 50=0.23217232525348663 99=0.5864452719688416 | FileCheck %s --check-prefix=LONGYS
// LONGYS:      descr=<f4 fortran_order=False shape=(100, 1)
// LONGYS-NEXT: [0] = 0.100000001 ok
// LONGYS-NEXT: [50] = 0.232172325 ok
// LONGYS-NEXT: [99] = 0.586445272 ok
// Every result is written, named after the entry's results; scalars as
// 0-d arrays.
// RUN: %python %S/npy.py show %t.long/num_steps.npy 0=54 | FileCheck %s --check-prefix=LONGN
// RUN: %python %S/npy.py show %t.long/num_accepted_steps.npy 0=53
// RUN: %python %S/npy.py show %t.long/num_rejected_steps.npy 0=1
// RUN: %python %S/npy.py show %t.long/result.npy 0=0
// LONGN:      descr=<i4 fortran_order=False shape=()
// LONGN-NEXT: [0] = 54 ok

// golden.md row 2: t1 = 0.1, dt0 = 0.01, which are the defaults, so only y0
// is given.
// RUN: rm -rf %t.short
// RUN: loom-run %examples/diffrax/ode.mlir --entry solve_ode --input y0=fill:0.1:1xf32 --output-dir %t.short | FileCheck %s --check-prefix=SHORT
// SHORT:      {{^}}ys: 100x1xf32
// SHORT-NEXT: {{^}}num_steps: i32 min=8 max=8 mean=8 [8]{{$}}
// SHORT-NEXT: {{^}}num_accepted_steps: i32 min=8 max=8 mean=8 [8]{{$}}
// SHORT-NEXT: {{^}}num_rejected_steps: i32 min=0 max=0 mean=0 [0]{{$}}
// SHORT-NEXT: {{^}}result: i32 min=0 max=0 mean=0 [0]{{$}}
// RUN: %python %S/npy.py show %t.short/ys.npy 0=0.10000000149011612 50=0.10178343951702118 99=0.10601721704006195 | FileCheck %s --check-prefix=SHORTYS
// SHORTYS:      [0] = 0.100000001 ok
// SHORTYS-NEXT: [50] = 0.10178344 ok
// SHORTYS-NEXT: [99] = 0.106017217 ok

// Spelling the defaults out changes nothing, and a .npy input works as a
// fill spec does.
// RUN: %python %S/npy.py write %t.y0.npy '<f4' 1 0.1
// RUN: loom-run %examples/diffrax/ode.mlir --entry solve_ode --input y0=%t.y0.npy --input t0=fill:0:f32 --input t1=fill:0.1:f32 --input dt0=fill:0.01:f32 --input theta=fill:0.1:f32 --input max_steps=fill:100:i32 | FileCheck %s --check-prefix=SHORT

// max_steps below what the solve needs: diffrax's max_steps_reached (1).
// RUN: loom-run %examples/diffrax/ode.mlir --entry solve_ode --input y0=fill:0.1:1xf32 --input max_steps=fill:3:i32 | FileCheck %s --check-prefix=CAPPED
// CAPPED: {{^}}num_steps: i32 min=3 max=3 mean=3 [3]{{$}}
// CAPPED: {{^}}result: i32 min=1 max=1 mean=1 [1]{{$}}
