// Without a CUDA driver every way of running GPU code ends in the same
// one-line error and a non-zero exit; compiling a library does not need one.
// UNSUPPORTED: cuda-driver
// RUN: not loom-run %examples/mwe/while_of_while.mlir --backend gpu --input inits=fill:0.5:4x1xf32 --input keys=jax-split:0:4 > %t.run 2>&1
// RUN: FileCheck %s --check-prefix=TOOLOUT < %t.run && count 1 < %t.run
// RUN: loom-compile %examples/mwe/while_of_while.mlir --backend gpu --emit=so -o %t.so
// RUN: not loom-exec %t.so --input inits=fill:0.5:4x1xf32 --input keys=jax-split:0:4 > %t.exec 2>&1
// RUN: FileCheck %s --check-prefix=EXEC < %t.exec && count 1 < %t.exec
// RUN: env LOOM_CUDA_DRIVER=%t.none/libcuda.so.1 not loom-exec %t.so > %t.path 2>&1
// RUN: FileCheck %s --check-prefix=PATH < %t.path && count 1 < %t.path

// TOOLOUT: {{^}}loom-run: no CUDA driver: libcuda.so.1 not found{{$}}
// EXEC: {{^}}loom-exec: {{.*}}.so: no CUDA driver: libcuda.so.1 not found{{$}}
// PATH: {{^}}loom-exec: {{.*}}.so: no CUDA driver: {{.*}}.none/libcuda.so.1 not found{{$}}
