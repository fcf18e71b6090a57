// The host code of a GPU program: the kernel launch is a call of the
// runtime with the PTX embedded as a constant, and the library's descriptor
// names backend "gpu".
// REQUIRES: libdevice
// RUN: loom-compile %examples/diffrax/sde.mlir --backend gpu --emit=llvm -o %t.ll
// RUN: FileCheck %s < %t.ll
// CHECK-DAG: @__loom_gpu_ptx_main_kernel = internal constant [{{[0-9]+}} x i8] c"//{{.*}}.entry main_kernel{{.*}}\00"
// CHECK-DAG: @__loom_gpu_kernel_main_kernel.main_kernel = internal constant [12 x i8] c"main_kernel\00"
// CHECK-DAG: c"gpu\00"
// CHECK: call i32 %{{[0-9]+}}(i64 %{{[0-9]+}}, i64 ptrtoint (ptr @__loom_gpu_ptx_main_kernel to i64), i64 ptrtoint (ptr @__loom_gpu_kernel_main_kernel.main_kernel to i64), i64 %{{[0-9]+}}, i64 128, i32 {{[0-9]+}},
