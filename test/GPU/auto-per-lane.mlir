// divergent=auto on the GPU backend picks per-lane where the CPU's cost
// model picks masked: @calls' loop at line 290 is masked for the CPU, and
// --backend gpu compiles it into a kernel, which only a per-lane loop gives.
// RUN: loom-opt %S/../Integration/vmap/Inputs/divergent.mlir --loom-pipeline 2>&1 >/dev/null | FileCheck %s --check-prefix=CPU
// RUN: loom-opt %S/../Integration/vmap/Inputs/divergent.mlir --loom-pipeline=target=gpu 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry calls_vmap --backend gpu --emit=mlir -o %t.mlir
// RUN: FileCheck %s --input-file=%t.mlir --check-prefix=MLIR
// RUN: loom-compile %S/../Integration/vmap/Inputs/divergent.mlir --entry calls_vmap --backend gpu --emit=ptx -o %t.ptx
// RUN: FileCheck %s --input-file=%t.ptx

// CPU: divergent.mlir:290:10: remark: loop is masked: {{.*}}; cost model: masked
// REMARK: divergent.mlir:290:10: remark: loop is per-lane: {{.*}}; target=gpu: one thread per lane, so no lane waits for another and no grid-wide any
// MLIR-LABEL: func.func @calls_vmap(
// MLIR: } {loom_gpu.lane_loop}
// CHECK: .visible .entry calls_vmap_kernel(
