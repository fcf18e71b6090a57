// Bad gang options are one-line errors: in loom-vmap, loom-pipeline, and
// the tools' flags (loom-run and loom-compile share them).
// RUN: not loom-opt %s -loom-vmap="divergent=gang gang-width=0" 2>&1 | FileCheck %s --check-prefix=WIDTH
// RUN: not loom-opt %s -loom-vmap="refill=1" 2>&1 | FileCheck %s --check-prefix=REFILL
// RUN: not loom-opt %s -loom-pipeline="divergent=masked refill=1" 2>&1 | FileCheck %s --check-prefix=REFILL-MASKED
// RUN: not loom-run %s --divergent gang --gang-width 0 2>&1 | FileCheck %s --check-prefix=RUN-WIDTH
// RUN: not loom-run %s --refill 2>&1 | FileCheck %s --check-prefix=RUN-REFILL
// RUN: not loom-compile %s --divergent per-lane --gang-width 8 -o %t.so 2>&1 | FileCheck %s --check-prefix=COMPILE-WIDTH
// auto weighs gangs of the width given.
// RUN: loom-compile %s --gang-width 8 -o %t.auto.so
// RUN: not loom-run %s --divergent gangs 2>&1 | FileCheck %s --check-prefix=WORD

// WIDTH: error: gang-width must be at least 1
// REFILL: error: refill applies to gangs: it needs divergent=gang, got divergent=auto
// REFILL-MASKED: error: refill applies to gangs: it needs divergent=gang, got divergent=masked
// RUN-WIDTH: loom-run: --gang-width must be at least 1, got 0
// RUN-REFILL: loom-run: --refill applies to gangs: it needs --divergent gang
// COMPILE-WIDTH: loom-compile: --gang-width applies to gangs: it needs --divergent gang or auto
// WORD: loom-run: unknown divergent strategy 'gangs' (expected one of: auto, masked, per-lane, gang)

func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  return %x : tensor<4xf32>
}
