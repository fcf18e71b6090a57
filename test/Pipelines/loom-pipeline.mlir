// --loom-pipeline is the separate passes, in order, with their options
// forwarded: the same IR and the same remarks, for each divergent strategy,
// one and three shards, with and without the loop counters.
//
// DEFINE: %{passes} =
// DEFINE: %{options} =
// DEFINE: %{same} = loom-opt %examples/mwe/while_of_while.mlir -loom-annotate-batch-axes -loom-scalarize-small-tensors=private-arguments=0 -canonicalize %{passes} -o %t.a 2>%t.a.err && loom-opt %examples/mwe/while_of_while.mlir --loom-pipeline="%{options}" -o %t.b 2>%t.b.err && diff %t.a %t.b && diff %t.a.err %t.b.err

// REDEFINE: %{passes} = -loom-vmap -loom-shard=shards=1 -loom-localize-loops
// REDEFINE: %{options} = shards=1 divergent=auto
// RUN: %{same}
// REDEFINE: %{passes} = -loom-vmap=divergent=masked -loom-shard=shards=1 -loom-localize-loops
// REDEFINE: %{options} = shards=1 divergent=masked
// RUN: %{same}
// RUN: FileCheck %s --check-prefix=MASKED < %t.b
// REDEFINE: %{passes} = -loom-vmap=divergent=per-lane -loom-shard=shards=1 -loom-localize-loops
// REDEFINE: %{options} = shards=1 divergent=per-lane
// RUN: %{same}
// RUN: FileCheck %s --check-prefix=PER-LANE < %t.b
// REDEFINE: %{passes} = -loom-vmap -loom-shard=shards=3 -loom-localize-loops
// REDEFINE: %{options} = shards=3 divergent=auto
// RUN: %{same}
// RUN: FileCheck %s --check-prefix=THREE < %t.b
// REDEFINE: %{passes} = -loom-vmap=divergent=masked -loom-shard=shards=3 -loom-localize-loops=loop-sync=global
// REDEFINE: %{options} = shards=3 divergent=masked loop-sync=global
// RUN: %{same}
// RUN: FileCheck %s --check-prefix=GLOBAL < %t.b
// REDEFINE: %{passes} = -loom-vmap=divergent=per-lane -loom-shard=shards=3 -loom-localize-loops=loop-sync=local
// REDEFINE: %{options} = shards=3 divergent=per-lane loop-sync=local
// RUN: %{same}

// The same with loom-count-loop-iterations.
// REDEFINE: %{passes} = -loom-vmap -loom-shard=shards=1 -loom-localize-loops -loom-count-loop-iterations
// REDEFINE: %{options} = shards=1 divergent=auto counters=1
// RUN: %{same}
// RUN: FileCheck %s --check-prefix=COUNTERS < %t.b
// REDEFINE: %{passes} = -loom-vmap=divergent=masked -loom-shard=shards=1 -loom-localize-loops -loom-count-loop-iterations
// REDEFINE: %{options} = shards=1 divergent=masked counters=1
// RUN: %{same}
// REDEFINE: %{passes} = -loom-vmap=divergent=per-lane -loom-shard=shards=1 -loom-localize-loops -loom-count-loop-iterations
// REDEFINE: %{options} = shards=1 divergent=per-lane counters=1
// RUN: %{same}
// REDEFINE: %{passes} = -loom-vmap -loom-shard=shards=3 -loom-localize-loops -loom-count-loop-iterations
// REDEFINE: %{options} = shards=3 divergent=auto counters=1
// RUN: %{same}
// REDEFINE: %{passes} = -loom-vmap=divergent=masked -loom-shard=shards=3 -loom-localize-loops -loom-count-loop-iterations
// REDEFINE: %{options} = shards=3 divergent=masked counters=1
// RUN: %{same}
// RUN: FileCheck %s --check-prefix=COUNTERS < %t.b
// REDEFINE: %{passes} = -loom-vmap=divergent=per-lane -loom-shard=shards=3 -loom-localize-loops -loom-count-loop-iterations
// REDEFINE: %{options} = shards=3 divergent=per-lane counters=1
// RUN: %{same}

// The cost model's options reach loom-vmap: a GPU target with these costs
// picks what the passes pick with them.
// REDEFINE: %{passes} = -loom-vmap="target=gpu simd-width=4 divergence-per-doubling=0.5 assumed-batch=16 masked-op-cost=1.5 lane-op-cost=4" -loom-shard=shards=3 -loom-localize-loops
// REDEFINE: %{options} = shards=3 target=gpu simd-width=4 divergence-per-doubling=0.5 assumed-batch=16 masked-op-cost=1.5 lane-op-cost=4
// RUN: %{same}

// Every option is forwarded to its pass, and counters adds the last one.
// RUN: loom-opt %examples/mwe/while_of_while.mlir --loom-pipeline="divergent=per-lane target=gpu simd-width=4 divergence-per-doubling=0.5 assumed-batch=16 masked-op-cost=1.5 lane-op-cost=4 one-pass-op-cost=9 gang-op-cost=2.5 gang-one-pass-op-cost=3.5 batched-lane-op-cost=6 carried-latency-cost=0.25 gang-overhead=300 refill-op-cost=7 vector-libm-ops=5 table-read-cost=2 adaptive=0 adaptive-factor=2 shards=3 loop-sync=local counters=1" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DUMP
// DUMP: builtin.module(loom-annotate-batch-axes,loom-scalarize-small-tensors{max-elements=4 private-arguments=false},canonicalize{{[{][^}]*[}]}},loom-vmap{adaptive=false adaptive-factor=2.000000e+00 assumed-batch=16 batched-lane-op-cost=6.000000e+00 carried-latency-cost=2.500000e-01 divergence-per-doubling=5.000000e-01 divergent=per-lane gang-one-pass-op-cost=3.500000e+00 gang-op-cost=2.500000e+00 gang-overhead=3.000000e+02 gang-width=32 lane-op-cost=4.000000e+00 masked-op-cost=1.500000e+00 one-pass-op-cost=9.000000e+00 refill=false refill-op-cost=7.000000e+00 simd-width=4 table-read-cost=2.000000e+00 target=gpu vector-libm-ops=5.000000e+00},loom-shard{shards=3},loom-localize-loops{loop-sync=local},loom-count-loop-iterations)
// RUN: loom-opt %s --loom-pipeline --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULTS
// DEFAULTS: builtin.module(loom-annotate-batch-axes,loom-scalarize-small-tensors{max-elements=4 private-arguments=false},canonicalize{{[{][^}]*[}]}},loom-vmap{adaptive=true adaptive-factor=4.000000e+00 assumed-batch=64 batched-lane-op-cost={{[^ ]+}} carried-latency-cost={{[^ ]+}} divergence-per-doubling={{[^ ]+}} divergent=auto gang-one-pass-op-cost={{[^ ]+}} gang-op-cost={{[^ ]+}} gang-overhead={{[^ ]+}} gang-width=32 lane-op-cost={{[^ ]+}} masked-op-cost={{[^ ]+}} one-pass-op-cost={{[^ ]+}} refill=false refill-op-cost={{[^ ]+}} simd-width=8 table-read-cost={{[^ ]+}} target=cpu vector-libm-ops={{[^ ]+}}},loom-shard{shards=0},loom-localize-loops{loop-sync=auto})

// MASKED: loom.strategy = #loom.strategy<masked>
// PER-LANE: loom.strategy = #loom.strategy<per_lane>
// THREE: mesh.mesh @loom_mesh(shape = 3)
// GLOBAL: mesh.all_reduce
// COUNTERS: call @loom_rt_count_iteration
