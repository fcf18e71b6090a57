// REQUIRES: mpi
// UNSUPPORTED: sanitizer
// The seed programs on 1 to 4 MPI ranks, each compiled once per rank count
// and variant with loom-compile and run with loom-exec under mpirun: the
// thread mesh's bits, and its collectives per call, on every variant
// (mpi_compare.py). Global-sync masked loops make one MPI collective per
// iteration; localized loops none.

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --variants per-lane:global,masked:global,masked:auto | FileCheck %s --check-prefix=MWE
// MWE: ranks=1 divergent=masked loop-sync=global: same bits, collectives per shard per call: [81]
// MWE: ranks=2 divergent=masked loop-sync=global: same bits, collectives per shard per call: [81, 81]
// MWE: ranks=3 divergent=masked loop-sync=auto: same bits, collectives per shard per call: [0, 0, 0]
// MWE: ranks=4 divergent=masked loop-sync=global: same bits, collectives per shard per call: [81, 81, 81, 81]
// MWE: PASS

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %examples/diffrax/sde.mlir --input inits=fill:0.1:7x1xf32 --input keys=jax-split:0:7 --input t1=fill:1.0:f32 --input max_steps=fill:10000:i32 --ranks 1,2,3,4 --variants masked:global,per-lane:auto | FileCheck %s --check-prefix=SDE
// SDE: ranks=2 divergent=masked loop-sync=global: same bits
// SDE: ranks=4 divergent=per-lane loop-sync=auto: same bits
// SDE: PASS

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %examples/diffrax/ode.mlir --npy inits=f32:0.05:0.5:7x1 --input t1=fill:1.0:f32 --input dt0=fill:0.05:f32 --input max_steps=fill:10000:i32 --ranks 1,3 --variants masked:global,masked:local | FileCheck %s --check-prefix=ODE
// ODE: ranks=3 divergent=masked loop-sync=global: same bits
// ODE: ranks=3 divergent=masked loop-sync=local: same bits, collectives per shard per call: [1, 1, 1]
// ODE: PASS
