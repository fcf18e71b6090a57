// Bad sharding input to loom-run: one line naming the problem, and a
// non-zero exit (`not` also fails the test on a crash).

// DEFINE: %{mwe} = %examples/mwe/while_of_while.mlir --input inits=fill:0.1:7x1xf32 --input keys=jax-split:0:7

// Shard counts below 1. --shards 0 is not "from the program": leaving the
// option out means that.
// RUN: not loom-run %{mwe} --shards 0 > %t.zero 2>&1
// RUN: FileCheck %s --check-prefix=ZERO < %t.zero && count 1 < %t.zero
// ZERO: {{^}}loom-run: --shards must be 1 to 1024, got 0{{$}}
// RUN: not loom-run %{mwe} --shards -3 > %t.neg 2>&1
// RUN: FileCheck %s --check-prefix=NEG < %t.neg && count 1 < %t.neg
// NEG: {{^}}loom-run: --shards must be 1 to 1024, got -3{{$}}
// Above loom::kMaxShards, the limit loom-shard and the API check too.
// RUN: not loom-run %{mwe} --shards 1025 > %t.many 2>&1
// RUN: FileCheck %s --check-prefix=MANY < %t.many && count 1 < %t.many
// MANY: {{^}}loom-run: --shards must be 1 to 1024, got 1025{{$}}

// loop-sync=local on a loop that sums across lanes would change results.
// RUN: not loom-run %S/Inputs/coupled.mlir --input x=fill:1.0:7xf32 --shards 2 --loop-sync local > %t.local 2>&1
// RUN: FileCheck %s --check-prefix=LOCAL < %t.local && count 1 < %t.local
// LOCAL: {{^}}loom-run: {{.*}}loop-sync=local would change results: the loop also reduces across shards (loom.sum

// The same loop under global and auto runs, and 2 shards give the bits of 1.
// RUN: rm -rf %t.c1 %t.c2 %t.ca
// RUN: loom-run %S/Inputs/coupled.mlir --input x=fill:1.0:7xf32 --shards 1 --output-dir %t.c1
// RUN: loom-run %S/Inputs/coupled.mlir --input x=fill:1.0:7xf32 --shards 2 --loop-sync global --output-dir %t.c2
// RUN: loom-run %S/Inputs/coupled.mlir --input x=fill:1.0:7xf32 --shards 3 --loop-sync auto --output-dir %t.ca
// RUN: cmp %t.c1/y.npy %t.c2/y.npy
// RUN: cmp %t.c1/y.npy %t.ca/y.npy

// A sharding on an axis other than the batch's first.
// RUN: not loom-run %S/Inputs/axis1.mlir --input x=fill:1.0:3x4xf32 --shards 2 > %t.axis 2>&1
// RUN: FileCheck %s --check-prefix=AXIS < %t.axis && count 1 < %t.axis
// AXIS: {{^}}loom-run: {{.*}}argument #0 of @main is batched along axis 1, but loom-shard splits axis 0 only
