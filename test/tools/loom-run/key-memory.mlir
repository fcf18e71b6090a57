// jax-split keys in bounded memory: one lane's key of the largest split
// (COUNT 2^30, whose keys are 8 GiB) is computed alone, and all of them
// where they do not fit are a one-line error, never std::bad_alloc. The
// address space is capped at 4 GB with ulimit -v, which a sanitizer runtime
// (terabytes of shadow memory) cannot run under.
// UNSUPPORTED: sanitizer

// The entry returns its key's high and low 16 bits, which the summary line
// prints exactly. Golden keys: JAX's split(PRNGKey(0), 30)[2] (also in
// ThreefryTest.cpp), then flat words 14 and 15 of the 2^30-key split and
// partitionable block (0, 2^30 - 1), as InputSpecTest.cpp derives them.
// RUN: loom-run %s --input 0=jax-split:0:30:2 | FileCheck %s --check-prefix=SMALL
// SMALL: result0: 2xi32 {{.*}} [10451, 55413]{{$}}
// SMALL: result1: 2xi32 {{.*}} [13718, 44703]{{$}}
// RUN: bash -c 'ulimit -v 4000000 && loom-run %s --input 0=jax-split:0:1073741824:7' | FileCheck %s --check-prefix=LANE
// LANE: result0: 2xi32 {{.*}} [24902, 46620]{{$}}
// LANE: result1: 2xi32 {{.*}} [8050, 53295]{{$}}
// RUN: bash -c 'ulimit -v 4000000 && loom-run %s --input 0=jax-split-partitionable:0:1073741824:1073741823' | FileCheck %s --check-prefix=PART
// PART: result0: 2xi32 {{.*}} [38904, 13727]{{$}}
// PART: result1: 2xi32 {{.*}} [55623, 57862]{{$}}

// All 2^30 keys do not fit in 4 GB.
// RUN: not bash -c 'ulimit -v 4000000 && loom-run %s --input 0=jax-split:0:1073741824' > %t.oom 2>&1
// RUN: FileCheck %s --check-prefix=OOM < %t.oom && count 1 < %t.oom
// OOM: {{^}}loom-run: input '0': key spec 'jax-split:0:1073741824': out of memory allocating 1073741824x2xu32 (8589934592 bytes){{$}}

func.func @main(%k: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %c16 = arith.constant dense<16> : tensor<2xi32>
  %m = arith.constant dense<65535> : tensor<2xi32>
  %hi = arith.shrui %k, %c16 : tensor<2xi32>
  %lo = arith.andi %k, %m : tensor<2xi32>
  return %hi, %lo : tensor<2xi32>, tensor<2xi32>
}
