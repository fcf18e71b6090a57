// The divergent-loop suite (benchmarks/divergent/, timed by
// loom-bench-divergent) must keep computing the same bits under every
// strategy: each program's @main over 256 lanes, under masked and per-lane at
// 1 and 2 shards, and gang and gang with refill (width 12, which does not
// divide 256) at 1, 2 and 3, every result bit-identical across the ten runs.

// Every program in the suite has a RUN line below.
// RUN: ls %loom_src/benchmarks/divergent/ | grep -c '\.mlir$' | FileCheck %s --check-prefix=COUNT
// COUNT: 16

// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/bisect_cubic.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/branchy_nest2.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/digit_sum.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/float_nest3.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/gcd_sub.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/lane_trip_for.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/log1p_nest.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/lorenz_heun.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/logistic_branch.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/mandel.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/newton_sqrt.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/pointer_chase.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/poly_nest3.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/random_walk.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/relax_uniform.mlir 256 | FileCheck %s
// RUN: python3 %loom_src/benchmarks/divergent/suite.py check loom-run %loom_src/benchmarks/divergent/sin_orbit.mlir 256 | FileCheck %s

// CHECK-NOT: MISMATCH
// CHECK: identical under masked, per-lane (1 and 2 shards), gang and gang+refill (1, 2 and 3)
// CHECK: PASS
