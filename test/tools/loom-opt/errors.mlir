// Bad files and bad IR end with a message and a non-zero exit, not a crash.
// RUN: not loom-opt %t.does-not-exist.mlir 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: cannot open input file

// RUN: not loom-opt %s --no-such-flag 2>&1 | FileCheck %s --check-prefix=FLAG
// FLAG: Unknown command line argument '--no-such-flag'

// RUN: echo 'func.func @f() { loom.frobnicate }' > %t.bad.mlir
// RUN: not loom-opt %t.bad.mlir 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// UNKNOWN: bad.mlir:1:18: error: custom op 'loom.frobnicate' is unknown

// RUN: echo 'func.func @f(%%x: tensor<4xf32>) -> f32 { %%a = loom.any %%x along 0 : tensor<4xf32> -> f32 return %%a : f32 }' > %t.type.mlir
// RUN: not loom-opt %t.type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: 'loom.any' op operand #0 must be ranked tensor of 1-bit signless integer values

// The help text lists Loom's passes by name.
// RUN: loom-opt --help | FileCheck %s --check-prefix=HELP
// HELP: Loom optimizer driver
func.func @ok() { return }
