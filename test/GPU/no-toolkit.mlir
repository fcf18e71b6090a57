// Without a CUDA toolkit (--cuda-path at an empty folder), a program with
// no libdevice math still compiles to PTX, and one with math is an error
// naming the op.
// RUN: rm -rf %t.empty && mkdir -p %t.empty
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry collatz_vmap --backend gpu --cuda-path %t.empty --emit=ptx -o %t.collatz.ptx
// RUN: FileCheck %s --input-file=%t.collatz.ptx --implicit-check-not=__nv_ --implicit-check-not=.extern
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --cuda-path %t.empty --emit=ptx -o %t.mwe.ptx 2>&1 | FileCheck %s --check-prefix=MATH
// CUDA_HOME is the default toolkit: an empty one is no toolkit either.
// RUN: env CUDA_HOME=%t.empty not loom-compile %examples/mwe/while_of_while.mlir --backend gpu --emit=ptx -o %t.mwe.ptx 2>&1 | FileCheck %s --check-prefix=MATH

// CHECK: .visible .entry collatz_vmap_kernel(
// MATH: while_of_while.mlir:18:8: error: cannot run on the GPU without the CUDA toolkit: 'math.sin' in @f lowers to a libdevice call, and no libdevice was found (point --cuda-path at a CUDA toolkit)
