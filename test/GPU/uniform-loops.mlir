// On the GPU, a uniform loop whose body reads per-lane values runs in each
// lane's thread, inside the kernel: its remark says so, and the loop nest is
// a lane loop. A uniform loop with a result shared by every lane (the
// while's counter) stays on the host; on the CPU both stay uniform.
// RUN: loom-opt %S/Inputs/uniform-loops.mlir --loom-pipeline='target=gpu' 2>&1 >/dev/null | FileCheck %s --check-prefix=GPU
// RUN: loom-opt %S/Inputs/uniform-loops.mlir --loom-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
// RUN: loom-compile %S/Inputs/uniform-loops.mlir --backend gpu --emit=mlir -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=MLIR
// RUN: loom-compile %S/Inputs/uniform-loops.mlir --backend gpu --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx --check-prefix=PTX

// GPU: uniform-loops.mlir:8:8: remark: loop is per-lane: its trip count is the same on every lane, but its body reads per-lane values, and target=gpu runs it in each lane's thread
// GPU: uniform-loops.mlir:16:10: remark: loop is uniform: its predicate is the same on every lane
// CPU: uniform-loops.mlir:8:8: remark: loop is uniform: its trip count is the same on every lane
// CPU: uniform-loops.mlir:16:10: remark: loop is uniform: its predicate is the same on every lane

// MLIR-LABEL: func.func @main(
// MLIR: scf.for
// MLIR: scf.for
// MLIR: } {loom_gpu.lane_loop}
// MLIR: scf.while
// MLIR-NOT: loom_gpu.lane_loop
// MLIR: return

// PTX: .visible .entry main_kernel(
// PTX-NOT: __nv_
