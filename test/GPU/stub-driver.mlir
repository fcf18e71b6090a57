// The toolkit's stub libcuda (what a machine with a toolkit but no driver
// finds) is no driver: CUDA_ERROR_STUB_LIBRARY (34), said as such.
// REQUIRES: cuda-stub
// RUN: loom-compile %examples/mwe/while_of_while.mlir --backend gpu --emit=so -o %t.so
// RUN: env LOOM_CUDA_DRIVER=%cuda_stub not loom-exec %t.so > %t.exec 2>&1
// RUN: FileCheck %s < %t.exec && count 1 < %t.exec
// RUN: env LOOM_CUDA_DRIVER=%cuda_stub not loom-run %examples/mwe/while_of_while.mlir --backend gpu > %t.run 2>&1
// RUN: FileCheck %s < %t.run && count 1 < %t.run

// CHECK: no CUDA driver: the library is the CUDA toolkit's stub (CUDA_ERROR_STUB_LIBRARY){{$}}
