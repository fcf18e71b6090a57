// --stats counts what golden.md says the masked lowering of the seed's MWE
// does at batch 30: 7 outer trips, 66 inner trips, and 1284 useful inner
// lane-iterations out of 30 x 66 = 1980 (65% lane utilisation). Under
// loop-sync=global every iteration of both levels all-reduces its predicate
// (8 + 73 checks per call); under auto none does.
//
// RUN: loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --divergent masked --shards 1 --stats | FileCheck %s --check-prefix=ONE
// ONE: loop {{.*}}while_of_while.mlir:41:12 (masked): iterations per shard per call [7], active lane-iterations 163 of 210 (77.6% lane utilisation)
// ONE: loop {{.*}}while_of_while.mlir:49:13 (masked): iterations per shard per call [66], active lane-iterations 1284 of 1980 (64.8% lane utilisation)
//
// RUN: loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --divergent masked --shards 2 --loop-sync global --stats --repeat 2 | FileCheck %s --check-prefix=GLOBAL
// GLOBAL: 49:13 (masked): iterations per shard per call [66, 66], active lane-iterations 1284 of 1980
// GLOBAL: collectives per shard per call: [81, 81]
//
// RUN: loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --divergent masked --shards 3 --loop-sync auto --stats | FileCheck %s --check-prefix=AUTO
// AUTO: collectives per shard per call: [0, 0, 0]
//
// Per-lane loops (unmasked: one lane per iteration) run each lane alone:
// their iterations, summed over shards, are exactly the useful
// lane-iterations of the masked loops above, and they need no collective.
// RUN: loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --divergent per-lane --shards 2 --stats | FileCheck %s --check-prefix=PERLANE
// PERLANE: loop {{.*}}while_of_while.mlir:41:12 (unmasked): iterations per shard per call [{{[0-9]+}}, {{[0-9]+}}], iterations summed over shards 163{{$}}
// PERLANE: loop {{.*}}while_of_while.mlir:49:13 (unmasked): iterations per shard per call [{{[0-9]+}}, {{[0-9]+}}], iterations summed over shards 1284{{$}}
// PERLANE: collectives per shard per call: [0, 0]
//
// RUN: not loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:3x1xf32 --input keys=jax-split:0:30 --stats 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: loom-run: inputs 'inits' and 'keys' are mapped together but have batch sizes 3 and 30
//
// A scalar entry has no mesh to count on.
// RUN: not loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:0 --stats 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: loom-run: loop counters need an entry that runs on a mesh (a batched entry), and @solve is not one
