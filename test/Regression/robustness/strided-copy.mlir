// The reproducer of a valid program refused (@main: a uniform loop that
// inserts a lane's scalar into each row of its tensor<4x1xf32>) and a 2-d
// variant (@grid: nested loops fill a tensor<2x3xf32> lane): bufferized,
// each batched insert is a memref.copy into a strided view of the batch
// buffer, which finalize-memref-to-llvm lowered to a call of memrefCopy.
// The JIT could not resolve it: "JIT session error: Symbols not found:
// [ memrefCopy ]" and a second line. Now both run, under masked and
// per-lane at 1 and 2 shards, and every element of every lane is checked
// (npy.py show exits 1 on a mismatch).

// RUN: %python %loom_src/test/tools/loom-run/npy.py write %t.xs.npy '<f4' 5 10 20 30 40 50
// The reproducer's own command.
// RUN: loom-run %s --input 0=fill:2:3xf32 2>&1 | FileCheck %s --check-prefix=FILL
// FILL: {{^}}result0: 3x4x1xf32 min=2 max=2 mean=2 [2, 2, 2, 2, ...]{{$}}
// FILL-NOT: {{.}}

// RUN: rm -rf %t.main.masked.1 && loom-run %s --entry main --input 0=%t.xs.npy --divergent masked --shards 1 --output-dir %t.main.masked.1 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.main.masked.1/result0.npy 0=10 1=10 2=10 3=10 4=20 5=20 6=20 7=20 8=30 9=30 10=30 11=30 12=40 13=40 14=40 15=40 16=50 17=50 18=50 19=50 | FileCheck %s --check-prefix=MAIN
// RUN: rm -rf %t.main.masked.2 && loom-run %s --entry main --input 0=%t.xs.npy --divergent masked --shards 2 --output-dir %t.main.masked.2 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.main.masked.2/result0.npy 0=10 1=10 2=10 3=10 4=20 5=20 6=20 7=20 8=30 9=30 10=30 11=30 12=40 13=40 14=40 15=40 16=50 17=50 18=50 19=50 | FileCheck %s --check-prefix=MAIN
// RUN: rm -rf %t.main.per-lane.1 && loom-run %s --entry main --input 0=%t.xs.npy --divergent per-lane --shards 1 --output-dir %t.main.per-lane.1 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.main.per-lane.1/result0.npy 0=10 1=10 2=10 3=10 4=20 5=20 6=20 7=20 8=30 9=30 10=30 11=30 12=40 13=40 14=40 15=40 16=50 17=50 18=50 19=50 | FileCheck %s --check-prefix=MAIN
// RUN: rm -rf %t.main.per-lane.2 && loom-run %s --entry main --input 0=%t.xs.npy --divergent per-lane --shards 2 --output-dir %t.main.per-lane.2 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.main.per-lane.2/result0.npy 0=10 1=10 2=10 3=10 4=20 5=20 6=20 7=20 8=30 9=30 10=30 11=30 12=40 13=40 14=40 15=40 16=50 17=50 18=50 19=50 | FileCheck %s --check-prefix=MAIN

// RUN: rm -rf %t.grid.masked.1 && loom-run %s --entry grid --input 0=%t.xs.npy --divergent masked --shards 1 --output-dir %t.grid.masked.1 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.grid.masked.1/r.npy 0=10 1=11 2=12 3=13 4=14 5=15 6=20 7=21 8=22 9=23 10=24 11=25 12=30 13=31 14=32 15=33 16=34 17=35 18=40 19=41 20=42 21=43 22=44 23=45 24=50 25=51 26=52 27=53 28=54 29=55 | FileCheck %s --check-prefix=GRID
// RUN: rm -rf %t.grid.masked.2 && loom-run %s --entry grid --input 0=%t.xs.npy --divergent masked --shards 2 --output-dir %t.grid.masked.2 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.grid.masked.2/r.npy 0=10 1=11 2=12 3=13 4=14 5=15 6=20 7=21 8=22 9=23 10=24 11=25 12=30 13=31 14=32 15=33 16=34 17=35 18=40 19=41 20=42 21=43 22=44 23=45 24=50 25=51 26=52 27=53 28=54 29=55 | FileCheck %s --check-prefix=GRID
// RUN: rm -rf %t.grid.per-lane.1 && loom-run %s --entry grid --input 0=%t.xs.npy --divergent per-lane --shards 1 --output-dir %t.grid.per-lane.1 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.grid.per-lane.1/r.npy 0=10 1=11 2=12 3=13 4=14 5=15 6=20 7=21 8=22 9=23 10=24 11=25 12=30 13=31 14=32 15=33 16=34 17=35 18=40 19=41 20=42 21=43 22=44 23=45 24=50 25=51 26=52 27=53 28=54 29=55 | FileCheck %s --check-prefix=GRID
// RUN: rm -rf %t.grid.per-lane.2 && loom-run %s --entry grid --input 0=%t.xs.npy --divergent per-lane --shards 2 --output-dir %t.grid.per-lane.2 2>&1 | FileCheck %s --check-prefix=OUT
// RUN: %python %loom_src/test/tools/loom-run/npy.py show %t.grid.per-lane.2/r.npy 0=10 1=11 2=12 3=13 4=14 5=15 6=20 7=21 8=22 9=23 10=24 11=25 12=30 13=31 14=32 15=33 16=34 17=35 18=40 19=41 20=42 21=43 22=44 23=45 24=50 25=51 26=52 27=53 28=54 29=55 | FileCheck %s --check-prefix=GRID
// OUT: {{^}}{{result0|r}}: 5x{{4x1|2x3}}xf32 min=10 max={{50|55}} {{.*}}{{$}}
// OUT-NOT: {{.}}
// MAIN: shape=(5, 4, 1)
// MAIN-NOT: MISMATCH
// GRID: shape=(5, 2, 3)
// GRID-NOT: MISMATCH

func.func private @f(%x: f32) -> tensor<4x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %init = arith.constant dense<0.0> : tensor<4x1xf32>
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%b = %init) -> (tensor<4x1xf32>) {
    %n = tensor.insert %x into %b[%k, %c0] : tensor<4x1xf32>
    scf.yield %n : tensor<4x1xf32>
  }
  return %r : tensor<4x1xf32>
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?x4x1xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?x4x1xf32>
  return %r : tensor<?x4x1xf32>
}

// Lane x: [[x, x+1, x+2], [x+3, x+4, x+5]].
func.func private @g(%x: f32) -> tensor<2x3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %init = arith.constant dense<0.0> : tensor<2x3xf32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%b = %init) -> (tensor<2x3xf32>) {
    %rb = scf.for %j = %c0 to %c3 step %c1 iter_args(%bb = %b) -> (tensor<2x3xf32>) {
      %i3 = arith.muli %i, %c3 : index
      %k = arith.addi %i3, %j : index
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      %v = arith.addf %x, %kf : f32
      %n = tensor.insert %v into %bb[%i, %j] : tensor<2x3xf32>
      scf.yield %n : tensor<2x3xf32>
    }
    scf.yield %rb : tensor<2x3xf32>
  }
  return %r : tensor<2x3xf32>
}
func.func @grid(%xs: tensor<?xf32> {loom.name = "xs"}) -> (tensor<?x2x3xf32> {loom.name = "r"}) {
  %r = loom.vmap @g(%xs) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?x2x3xf32>
  return %r : tensor<?x2x3xf32>
}
