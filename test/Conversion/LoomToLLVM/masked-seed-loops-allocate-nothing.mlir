// The seed's programs batched with masked loops (their @main, one loom.vmap
// over the scalar solve) and lowered to buffers: no loop, at any level,
// allocates or copies a buffer. Batched callees are inlined, the buffers
// that die within an iteration are allocated once before the loop nest,
// every carry (the lane mask included) is updated in place, and a lane's
// small results are stored straight into its row. Checked with shards too:
// loom-shard adds collectives, not buffers.
//
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-bufferize 2>/dev/null | %python %S/Inputs/loop-buffers.py | FileCheck %s --check-prefix=MWE
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-shard=shards=2 -loom-localize-loops=loop-sync=global -loom-bufferize 2>/dev/null | %python %S/Inputs/loop-buffers.py | FileCheck %s --check-prefix=MWE
// MWE: @main: {{[1-9][0-9]*}} loops, 0 buffer ops in loops
//
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-bufferize 2>/dev/null | %python %S/Inputs/loop-buffers.py | FileCheck %s --check-prefix=DIFFRAX
// RUN: loom-opt %examples/diffrax/ode_f64.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-bufferize 2>/dev/null | %python %S/Inputs/loop-buffers.py | FileCheck %s --check-prefix=DIFFRAX
// RUN: loom-opt %examples/diffrax/sde.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-bufferize 2>/dev/null | %python %S/Inputs/loop-buffers.py | FileCheck %s --check-prefix=DIFFRAX
// RUN: loom-opt %examples/diffrax/sde.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-shard=shards=2 -loom-localize-loops -loom-bufferize 2>/dev/null | %python %S/Inputs/loop-buffers.py | FileCheck %s --check-prefix=DIFFRAX
// The scalar solve, then its batched form in @main.
// DIFFRAX: @solve_{{ode|sde}}: {{[1-9][0-9]*}} loops, 0 buffer ops in loops
// DIFFRAX: @main: {{[1-9][0-9]*}} loops, 0 buffer ops in loops
//
// The checker sees what it must: a loop that allocates is reported.
// RUN: %python %S/Inputs/loop-buffers.py < %s | FileCheck %s --check-prefix=SELF
// SELF: @allocates_per_iteration: 1 loops, 1 buffer ops in loops
// SELF-NEXT: in a loop: %b = memref.alloc() : memref<4xf32>
func.func @allocates_per_iteration(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %b = memref.alloc() : memref<4xf32>
    memref.dealloc %b : memref<4xf32>
  }
  return
}
