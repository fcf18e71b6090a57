// Each --emit stage of loom-compile, on the seed's MWE.
//
// RUN: loom-compile %examples/mwe/while_of_while.mlir --emit=mlir -o %t.mlir
// RUN: FileCheck %s --check-prefix=MLIR < %t.mlir
// MLIR: func.func @main(
// MLIR-SAME: memref<
// MLIR-NOT: llvm.func
//
// RUN: loom-compile %examples/mwe/while_of_while.mlir --emit=llvm --shards 2 --counters -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll
// LLVM-DAG: target triple = "x86_64
// LLVM-DAG: define hidden void @_mlir_main(ptr
// LLVM-DAG: @loom_program = {{.*}}constant %LoomProgram { i32 1297043276, i32 3, ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, ptr @{{.*}}, ptr @_mlir_main, i64 2, i32 1,
// LLVM-DAG: c"x86-64-v3\00"
// LLVM-DAG: c"{{.*}}+avx2,{{.*}}"
// LLVM-DAG: c"{{.*}}while_of_while.mlir:49:13\00"
// The timed variants' site, and the names its two forms are reported by.
// LLVM-DAG: c"{{.*}}while_of_while.mlir:41:12\00"
// LLVM-DAG: c"gang with refill (width 32)\00"
//
// RUN: loom-compile %examples/mwe/while_of_while.mlir --emit=obj -o %t.o
// RUN: llvm-nm %t.o | FileCheck %s --check-prefix=OBJ
// OBJ: {{[DR]}} loom_program
//
// RUN: loom-compile %examples/mwe/while_of_while.mlir -o %t.so
// RUN: llvm-nm -D --defined-only %t.so | FileCheck %s --check-prefix=SO
// SO-NOT: main
// SO: loom_program
// SO-NOT: main
//
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --emit=cubin -o %t.x 2>&1 | FileCheck %s --check-prefix=BADEMIT
// BADEMIT: {{^}}loom-compile: unknown emit 'cubin'
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --target-cpu no-such-cpu -o %t.x 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: {{^}}loom-compile: unknown target CPU 'no-such-cpu' for x86_64
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --shards 2 --shards 3 -o %t.x 2>&1 | FileCheck %s --check-prefix=AGAIN
// AGAIN: {{^}}loom-compile: --shards is given more than once{{$}}
// RUN: not loom-compile %examples/mwe/while_of_while.mlir --entry solve --counters -o %t.x 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: {{^}}loom-compile: loop counters need an entry that runs on a mesh
