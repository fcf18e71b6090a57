// REQUIRES: mpi
// UNSUPPORTED: sanitizer
// The vmap tests' programs on MPI ranks against the thread mesh
// (mpi_compare.py): ordered float sums and integer reductions across ranks
// (reductions.mlir), a loop bound reduced over ranks (maxloop.mlir), and
// divergent nests with calls, caps and zero-trip lanes (divergent.mlir),
// with uneven splits (7 to 13 lanes over 2 to 4 ranks).

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %S/../Integration/shard/Inputs/reductions.mlir --input v=%S/../Integration/shard/Inputs/red_v.npy --input f=%S/../Integration/shard/Inputs/red_f.npy --ranks 1,2,3,4 --variants masked:auto,per-lane:auto | FileCheck %s --check-prefix=RED
// RED: ranks=3 divergent=masked loop-sync=auto: same bits
// RED: ranks=4 divergent=per-lane loop-sync=auto: same bits
// RED: PASS

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %S/../Integration/shard/Inputs/maxloop.mlir --input a=%S/../Integration/shard/Inputs/m.npy --ranks 2,3 --variants masked:auto,per-lane:auto | FileCheck %s --check-prefix=MAX
// MAX: ranks=3 divergent=per-lane loop-sync=auto: same bits
// MAX: PASS

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %S/../Integration/vmap/Inputs/divergent.mlir --entry nested_vmap --npy as=f32:0:6:9 --npy bs=f32:0.1:3:9 --ranks 2,4 --variants masked:global,per-lane:global | FileCheck %s --check-prefix=NESTED
// NESTED: ranks=4 divergent=masked loop-sync=global: same bits
// NESTED: PASS

// RUN: python3 %S/mpi_compare.py %loom_tools "%mpirun" %S/../Integration/vmap/Inputs/divergent.mlir --entry calls_vmap --npy xs=f32:0:40:13 --npy limits=f32:2:900:13 --ranks 3 --variants masked:global,masked:auto,per-lane:auto | FileCheck %s --check-prefix=CALLS
// CALLS: ranks=3 divergent=masked loop-sync=global: same bits
// CALLS: PASS
