// loom-exec and a library loom-compile wrote need only glibc, libstdc++,
// libm and libgcc_s: no LLVM, MLIR or libfmt (issue 13). A runtime built
// with MPI links Open MPI too (%{mpi_libs}); the library never does.
// REQUIRES: ldd
// A sanitizer build links its runtime's own dependencies (libresolv ...):
// what ships is the normal build.
// UNSUPPORTED: sanitizer
// RUN: ldd %loom_tools/loom-exec | FileCheck %s
// CHECK-NOT: {{LLVM|MLIR|fmt|not found}}
// RUN: loom-compile %examples/mwe/while_of_while.mlir -o %t.so
// RUN: ldd %t.so | FileCheck %s --check-prefix=SO
// SO-NOT: {{LLVM|MLIR|fmt|stdc\+\+|not found}}
// SO: libc.so
// SO-NOT: {{LLVM|MLIR|fmt|stdc\+\+|not found}}
// RUN: ldd %t.so | grep '=>' | not grep -v -E 'lib(c|m|gcc_s)\.so'
// Every library ldd names is one of those.
// RUN: ldd %loom_tools/loom-exec | grep '=>' | not grep -v -E 'lib(c|m|stdc\+\+|gcc_s%{mpi_libs})\.so'
