// What --backend gpu refuses, each with a one-line error and a non-zero exit.
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --divergent masked --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=MASKED
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --counters --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=COUNTERS
// RUN: not loom-run %examples/mwe/while_of_while.mlir --backend gpu --stats --input inits=fill:0.5:4x1xf32 --input keys=jax-split:0:4 2>&1 | FileCheck %s --check-prefix=STATS
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=CPU
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --gpu-arch=volta --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=ARCH
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --lane-vectors --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=LANEVECTORS
// An entry with no per-lane loop has no kernel.
// RUN: not loom-compile %S/../Integration/vmap/Inputs/division.mlir --entry tensors --backend gpu --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=NONE
// A loop pinned masked in the program.
// RUN: not loom-compile %S/Inputs/pinned-masked.mlir --backend gpu --emit=ptx -o %t.ptx 2>&1 | FileCheck %s --check-prefix=PINNED

// LANEVECTORS: {{^}}loom-compile: --lane-vectors is not available with --backend gpu: a kernel's lanes are threads, not vector elements{{$}}
// MASKED: loom-compile: --divergent masked is not available with --backend gpu: it runs each divergent loop per lane, one thread per lane (use auto or per-lane)
// COUNTERS: loom-compile: loop counters (--stats, --counters) are not available with --backend gpu: its kernels have no device counters yet
// STATS: loom-run: loop counters (--stats, --counters) are not available with --backend gpu
// CPU: loom-compile: --emit=ptx needs --backend gpu
// ARCH: loom-compile: --gpu-arch must name a CUDA architecture such as sm_90 or sm_80, got 'volta'
// NONE: loom-compile: @tensors has no per-lane loop to run as a GPU kernel
// PINNED: pinned-masked.mlir:5:8: error: cannot run on the GPU: this loop was decided masked
