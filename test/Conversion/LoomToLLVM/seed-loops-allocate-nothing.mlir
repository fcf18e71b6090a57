// The seed's scalar programs, lowered to buffers: nothing inside their loops
// allocates or copies. Small tensors (a lane's y of shape (1,), keys, the
// keys a split makes) are carried and chosen as scalars; the saved-values
// buffer is updated in place.
//
// RUN: loom-opt %examples/mwe/while_of_while.mlir -loom-annotate-batch-axes -loom-vmap -loom-bufferize | FileCheck %s --check-prefix=MWE
// MWE-LABEL: func.func @solve(
// MWE: %[[LOOP:.*]]:3 = scf.while
// MWE-NOT: memref.alloc
// MWE-NOT: memref.copy
// The only buffer is the result's, after the loops.
// MWE: memref.alloc() {{.*}} : memref<1xf32>
// MWE-NEXT: memref.store %[[LOOP]]#1
//
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-annotate-batch-axes -loom-vmap -loom-bufferize | FileCheck %s --check-prefix=ODE
// ODE-LABEL: func.func @solve_ode(
// ODE: memref.alloc() {{.*}} : memref<100x1xf32>
// ODE: scf.while
// ODE-NOT: memref.alloc
// ODE-NOT: memref.copy
// ODE: return
//
// RUN: loom-opt %examples/diffrax/sde.mlir -loom-annotate-batch-axes -loom-vmap -loom-bufferize | FileCheck %s --check-prefix=SDE
// (The Brownian tree's @vbt_w is inlined into the solve's loop.)
// SDE-LABEL: func.func @solve_sde(
// SDE: memref.alloc() {{.*}} : memref<100x1xf32>
// SDE: scf.while
// SDE-NOT: memref.alloc
// SDE-NOT: memref.copy
// SDE: return
