// divergent=auto on the GPU picks per-lane whatever the cost model says:
// with parameters that make the CPU's cost model pick masked, target=gpu
// still picks per-lane and its remark says why; --backend gpu batches with
// target=gpu, so its lane loops become kernels.
// RUN: loom-opt %S/Inputs/two-loops.mlir --loom-pipeline='simd-width=1024 masked-op-cost=0.01' 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
// RUN: loom-opt %S/Inputs/two-loops.mlir --loom-pipeline='target=gpu simd-width=1024 masked-op-cost=0.01' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: loom-compile %S/Inputs/two-loops.mlir --backend gpu --emit=mlir -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=MLIR
// RUN: loom-compile %S/Inputs/two-loops.mlir --backend gpu --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx

// CPU: two-loops.mlir:5:8: remark: loop is masked: {{.*}}; cost model: masked
// REMARK: two-loops.mlir:5:8: remark: loop is per-lane: {{.*}}; target=gpu: one thread per lane, so no lane waits for another and no grid-wide any
// MLIR-LABEL: func.func @main(
// MLIR: } {loom_gpu.lane_loop}
// MLIR: } {loom_gpu.lane_loop}
// CHECK: .visible .entry main_kernel(
