// benchmarks/fit-cost-model.py fits the cost model from what loom-vmap's
// remarks print: each outermost divergent loop's depth, lanes, SIMD width,
// ops, lane-by-lane ops, table reads, carries, carried chain, gang width
// and form. If the remark changes and the script's pattern does not, this
// fails.
// RUN: python3 %loom_src/benchmarks/fit-cost-model.py --features %loom_src/benchmarks/divergent/sin_orbit.mlir --loom-opt loom-opt | FileCheck %s --check-prefix=ONE-PASS
// ONE-PASS: L=1 B=64 W=8 ops=10 lane=1 libm=1 tables=0 carries=2 chain=37 Wg=32 one-pass
// RUN: python3 %loom_src/benchmarks/fit-cost-model.py --features %examples/diffrax/sde.mlir --loom-opt loom-opt | FileCheck %s --check-prefix=SWEEPS
// SWEEPS: L=2 B=64 W=8 ops=225 lane=12 libm=2 tables=0 carries=8 chain=299 Wg=32 sweeps
// RUN: python3 %loom_src/benchmarks/fit-cost-model.py --features %loom_src/benchmarks/divergent/pointer_chase.mlir --loom-opt loom-opt | FileCheck %s --check-prefix=TABLE
// TABLE: L=1 B=64 W=8 ops=6 lane=0 libm=0 tables=1 carries=3 chain=6 Wg=32 one-pass
