// REQUIRES: mpi
// UNSUPPORTED: sanitizer
// A rank that fails mid-loop ends the job at once: one line naming the rank,
// from rank 0, then MPI_Abort ends every rank (the banner after it is
// mpirun's). LOOM_TEST_FAIL_RANK=r makes rank r fail entering its third
// collective of a call, or at the end of a call with fewer. Each job runs
// under `timeout 10`, so a hang fails the test.

// RUN: rm -rf %t && mkdir -p %t
// Global sync: rank 1 fails inside the masked loop; the others wait in a
// collective and are released.
// RUN: not env LOOM_TEST_FAIL_RANK=1 timeout 10 %mpiexec -np 3 -x LOOM_TEST_FAIL_RANK loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --backend mpi --divergent masked --loop-sync global 2> %t/global.err
// RUN: FileCheck %s --check-prefix=GLOBAL < %t/global.err
// RUN: grep -c "^loom-run:" %t/global.err | FileCheck %s --check-prefix=ONE
// GLOBAL: loom-run: rank 1: injected failure (LOOM_TEST_FAIL_RANK=1) entering collective 3 of the call
// ONE: {{^1$}}

// Localized loops make no collective: rank 2 fails at the end of its lanes.
// RUN: not env LOOM_TEST_FAIL_RANK=2 timeout 10 %mpiexec -np 3 -x LOOM_TEST_FAIL_RANK loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --backend mpi --divergent masked 2> %t/local.err
// RUN: FileCheck %s --check-prefix=LOCAL < %t/local.err
// LOCAL: loom-run: rank 2: injected failure (LOOM_TEST_FAIL_RANK=2) at the end of the call, after 0 collectives

// The same from a library under loom-exec, on 4 ranks.
// RUN: loom-compile %examples/mwe/while_of_while.mlir --backend mpi --shards 4 --divergent masked --loop-sync global -O1 --emit=so -o %t/mwe4.so
// RUN: not env LOOM_TEST_FAIL_RANK=3 timeout 10 %mpiexec -np 4 -x LOOM_TEST_FAIL_RANK loom-exec %t/mwe4.so --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 2> %t/exec.err
// RUN: FileCheck %s --check-prefix=EXEC < %t/exec.err
// EXEC: loom-exec: rank 3: injected failure (LOOM_TEST_FAIL_RANK=3) entering collective 3 of the call

// A library compiled for 4 ranks refuses a job of 2.
// RUN: not timeout 10 %mpiexec -np 2 loom-exec %t/mwe4.so --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 2> %t/size.err
// RUN: FileCheck %s --check-prefix=SIZE < %t/size.err
// SIZE: loom-exec: rank 0: the program was compiled for 4 shards, but the MPI job has 2 ranks (one rank per shard: run it under mpirun -np 4, or compile it with --shards 2)

// A program that links only the runtime (Loom::Runtime, no MPI) refuses an
// MPI library, saying what to link.
// RUN: not %loom_obj/python-free-examples/runtime-embed/mwe_batch %t/mwe4.so 2> %t/nompi.err
// RUN: FileCheck %s --check-prefix=NOMPI < %t/nompi.err
// NOMPI: it runs on backend 'mpi', and this program was not linked with Loom's MPI runtime (Loom::RuntimeMPI)

// The JIT takes the job's size; a --shards that disagrees is an error.
// RUN: not timeout 10 %mpiexec -np 2 loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --backend mpi --shards 3 2> %t/shards.err
// RUN: FileCheck %s --check-prefix=SHARDS < %t/shards.err
// SHARDS: loom-run: rank 0: --shards 3 does not match the MPI job's 2 ranks (the MPI backend runs one shard per rank; leave --shards out)

// Rank 0 alone reads the inputs: a missing file ends every rank.
// RUN: not timeout 10 %mpiexec -np 3 loom-run %examples/mwe/while_of_while.mlir --input inits=%t/missing.npy --input keys=jax-split:0:30 --backend mpi 2> %t/input.err
// RUN: FileCheck %s --check-prefix=INPUT < %t/input.err
// INPUT: loom-run: rank 0: input 'inits': {{.*}}missing.npy

// Without mpirun, a singleton job: one rank, the whole batch.
// RUN: loom-run %examples/mwe/while_of_while.mlir --input inits=fill:0.1:30x1xf32 --input keys=jax-split:0:30 --backend mpi -O1 | FileCheck %s --check-prefix=SINGLETON
// SINGLETON: ys: 30x1xf32 min=10.1931782 max=13.5127087
