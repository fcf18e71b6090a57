// The MWE's scalar `solve` on single lanes reproduces golden.md
// (shared/reference/golden.md, "The pure-JAX MWE"): inits 0.1, keys
// split(PRNGKey(0), 30)[i]. loom-run prints 9 significant digits, and each
// check is exactly those digits of the golden value.

// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:0 | FileCheck %s --check-prefix=LANE0
// LANE0: {{^}}y: 1xf32 min=13.5127087 max=13.5127087 mean=13.5127087 [13.5127087]{{$}}

// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:1 | FileCheck %s --check-prefix=LANE1
// LANE1: {{^}}y: 1xf32 {{.*}}[11.6708059]{{$}}

// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:2 | FileCheck %s --check-prefix=LANE2
// LANE2: {{^}}y: 1xf32 {{.*}}[11.0796547]{{$}}

// Batched over the 30 keys, the first lanes are those three, with the
// lowering's IR verified after every pass (--verify-each) and without
// (once at its end).
// RUN: loom-run %examples/mwe/while_of_while.mlir --verify-each --divergent masked --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 | FileCheck %s --check-prefix=BATCH
// RUN: loom-run %examples/mwe/while_of_while.mlir --divergent masked --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 | FileCheck %s --check-prefix=BATCH
// BATCH: {{^}}ys: 30x1xf32 {{.*}}[13.5127087, 11.6708059, 11.0796547,

// Inputs addressed by position give the same lane, and the key may come from
// a .npy file holding split(PRNGKey(0), 30)[0] (golden.md, "PRNG").
// RUN: %python %S/npy.py write %t.key.npy '<u4' 2 534634087 469980698
// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input 0=fill:0.1:1xf32 --input 1=%t.key.npy | FileCheck %s --check-prefix=LANE0

// The partitionable keys differ from the default ones, so the lane does too:
// this guards against the flag being ignored.
// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split-partitionable:0:30:0 | FileCheck %s --check-prefix=PART
// PART: {{^}}y: 1xf32
// PART-NOT: 13.5127087

// The output file holds the printed value, and only it.
// RUN: rm -rf %t.out
// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:0 --output-dir %t.out
// RUN: %python %S/npy.py show %t.out/y.npy 0=13.51270866394043 | FileCheck %s --check-prefix=FILE
// FILE:      descr=<f4 fortran_order=False shape=(1,)
// FILE-NEXT: [0] = 13.5127087 ok
