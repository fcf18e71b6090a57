// The seed's slowdown, on its ode program (python-free-examples/diffrax/ode.mlir):
// a vmapped while-of-while whose loop predicates differ per lane. Masked
// and sharded like jax.jit + GSPMD (loop-sync=global), each divergent loop
// level all-reduces its predicate on every iteration; under auto (pmap,
// shard_map) no collective is left inside any loop.
//
// DEFINE: %{shard} = loom-opt %examples/diffrax/ode.mlir -loom-annotate-batch-axes -loom-vmap=divergent=masked -loom-shard=shards=2

// RUN: %{shard} -loom-localize-loops=loop-sync=global 2>/dev/null | FileCheck %s --check-prefix=GLOBAL
// RUN: %{shard} -loom-localize-loops=loop-sync=global 2>/dev/null | grep -c mesh.all_reduce | FileCheck %s --check-prefix=COUNT
// RUN: %{shard} -loom-localize-loops=loop-sync=global -o /dev/null 2>&1 | FileCheck %s --check-prefix=GLOBAL-REMARK
// RUN: %{shard} -loom-localize-loops=loop-sync=auto 2>/dev/null | FileCheck %s --check-prefix=AUTO
// RUN: %{shard} -loom-localize-loops=loop-sync=auto -o /dev/null 2>&1 | FileCheck %s --check-prefix=AUTO-REMARK
// Per-lane loops have no predicate to synchronise at all.
// RUN: loom-opt %examples/diffrax/ode.mlir -loom-annotate-batch-axes -loom-vmap=divergent=per-lane -loom-shard=shards=2 -loom-localize-loops=loop-sync=global 2>/dev/null | FileCheck %s --check-prefix=AUTO

// One predicate all-reduce per divergent level, each deciding its loop.
// GLOBAL: scf.while
// GLOBAL: %[[ANY:.*]] = loom.any
// GLOBAL: %[[T:.*]] = tensor.from_elements %[[ANY]] : tensor<1xi1>
// GLOBAL: %[[R:.*]] = mesh.all_reduce %[[T]] on @loom_mesh mesh_axes = [0] reduction = <bitwise_or>
// GLOBAL: %[[P:.*]] = tensor.extract %[[R]]
// GLOBAL: scf.condition(%[[P]])
// GLOBAL: scf.while
// GLOBAL: %[[ANY2:.*]] = loom.any
// GLOBAL: %[[T2:.*]] = tensor.from_elements %[[ANY2]] : tensor<1xi1>
// GLOBAL: %[[R2:.*]] = mesh.all_reduce %[[T2]] on @loom_mesh
// GLOBAL: %[[P2:.*]] = tensor.extract %[[R2]]
// GLOBAL: scf.condition(%[[P2]])
// Plus one after the loops: on_error's any-lane-failed (a max of the result
// codes), once per call.
// COUNT: 3

// GLOBAL-REMARK-DAG: ode.mlir:275:16: remark: loop-sync global (requested): the predicate is all-reduced across shards on every iteration
// GLOBAL-REMARK-DAG: ode.mlir:186:12: remark: loop-sync global (requested): the predicate is all-reduced across shards on every iteration

// The only collective is on_error's, in @main after the loops.
// AUTO: mesh.mesh @loom_mesh(shape = 2)
// AUTO-NOT: mesh.all_reduce
// AUTO-NOT: mesh.all_gather
// AUTO: func.func @main(
// AUTO-NOT: scf.while
// AUTO: mesh.all_reduce {{.*}} reduction = <max>
// AUTO-NOT: mesh.all_reduce
// AUTO-NOT: mesh.all_gather

// AUTO-REMARK-DAG: ode.mlir:275:16: remark: loop-sync local: each shard reduces its own lanes' predicate
// AUTO-REMARK-DAG: ode.mlir:186:12: remark: loop-sync local: each shard reduces its own lanes' predicate
