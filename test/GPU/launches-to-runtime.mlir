// RUN: loom-opt %s -split-input-file -convert-gpu-launches-to-loom-runtime -verify-diagnostics | FileCheck %s

// The PTX becomes a NUL-terminated constant, the launch a runtime call with
// the kernel's arguments exploded: the memref's aligned pointer, offset,
// size and stride, then the scalar; the layout says (rank 1, 4 bytes),
// (scalar, 8 bytes).
// CHECK-LABEL: func.func @host(
// CHECK-SAME: %[[X:.*]]: memref<?xf32>, %[[N:.*]]: index, %[[CTX:.*]]: i64
// CHECK-DAG: %[[LAYOUT:.*]] = memref.alloca() : memref<4xi64>
// CHECK-DAG: %[[ARGS:.*]] = memref.alloca() : memref<5xi64>
// CHECK: memref.extract_aligned_pointer_as_index %[[X]]
// CHECK: memref.extract_strided_metadata %[[X]]
// CHECK: %[[PTX:.*]] = llvm.mlir.addressof @__loom_gpu_ptx_kernels
// CHECK: %[[NAME:.*]] = llvm.mlir.addressof @__loom_gpu_kernel_kernels.k
// CHECK: call @loom_rt_gpu_launch(%[[CTX]], {{.*}}, {{.*}}, {{.*}}, {{.*}}, %{{.*}}, {{.*}}, {{.*}}) : (i64, i64, i64, i64, i64, i32, i64, i64) -> i32
// CHECK-NOT: gpu.launch_func
// CHECK-DAG: llvm.mlir.global internal constant @__loom_gpu_ptx_kernels("fake ptx\00")
// CHECK-DAG: llvm.mlir.global internal constant @__loom_gpu_kernel_kernels.k("k\00")
// CHECK-NOT: gpu.binary
module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "fake ptx">]
  func.func @host(%x: memref<?xf32>, %n: index, %ctx: i64 {loom.context}) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c128, %c1, %c1) args(%x : memref<?xf32>, %n : index)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "fake ptx">]
  func.func @unsharded(%x: memref<?xf32>, %n: index) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{a kernel launch needs the shard's context: it must be in a sharded function}}
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "fake ptx">]
  func.func @twod(%x: memref<?xf32>, %n: index, %ctx: i64 {loom.context}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{the GPU runtime launches one-dimensional grids and blocks}}
    gpu.launch_func @kernels::@k blocks in (%n, %n, %c1) threads in (%c1, %c1, %c1) args(%x : memref<?xf32>)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target<chip = "sm_90">, assembly = "fake ptx">]
  func.func @vector(%v: vector<4xf32>, %n: index, %ctx: i64 {loom.context}) {
    %c1 = arith.constant 1 : index
    // expected-error @+1 {{the GPU runtime cannot pass a kernel argument of type 'vector<4xf32>'}}
    gpu.launch_func @kernels::@k blocks in (%n, %c1, %c1) threads in (%c1, %c1, %c1) args(%v : vector<4xf32>)
    return
  }
}
