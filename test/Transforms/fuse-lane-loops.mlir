// RUN: loom-opt %s -loom-fuse-lane-loops -split-input-file | FileCheck %s

// Three sweeps over allocations, a pure op between two of them: one loop,
// the bodies in order, the pure op still before it.
// CHECK-LABEL: func.func @sweeps(
// CHECK: %[[S:.*]] = arith.mulf
// CHECK: scf.for %[[I:.*]] = {{.*}} {
// CHECK-NEXT: memref.load %{{.*}}[%[[I]]]
// CHECK-NEXT: arith.mulf
// CHECK-NEXT: memref.store %{{.*}}, %[[B:.*]][%[[I]]]
// CHECK-NEXT: memref.load %[[B]][%[[I]]]
// CHECK-NEXT: arith.addf
// CHECK-NEXT: memref.store %{{.*}}, %[[C:.*]][%[[I]]]
// CHECK-NEXT: memref.load %[[C]][%[[I]]]
// CHECK-NEXT: arith.mulf %{{.*}}, %[[S]]
// CHECK-NEXT: memref.store
// CHECK-NEXT: }
// CHECK-NOT: scf.for
func.func @sweeps(%a: memref<?xf32>, %n: index, %s: f32) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = arith.mulf %x, %x : f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %b[%i] : memref<?xf32>
    %z = arith.addf %y, %y : f32
    memref.store %z, %c[%i] : memref<?xf32>
  }
  %s2 = arith.mulf %s, %s : f32
  scf.for %i = %c0 to %n step %c1 {
    %z = memref.load %c[%i] : memref<?xf32>
    %w = arith.mulf %z, %s2 : f32
    memref.store %w, %d[%i] : memref<?xf32>
  }
  memref.dealloc %b : memref<?xf32>
  memref.dealloc %c : memref<?xf32>
  return %d : memref<?xf32>
}

// -----

// The same trip count through a dim of the allocation, a row of a 2-D
// buffer reached through a subview at the lane, and an integer OR carried
// by the second loop (the masks' any()): fused, the carry kept.
// CHECK-LABEL: func.func @rows_and_carry(
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (i32) {
// CHECK: memref.subview
// CHECK: memref.store
// CHECK: memref.store
// CHECK: arith.ori %[[ACC]]
// CHECK-NOT: scf.for
// CHECK: return %[[R]]
func.func @rows_and_carry(%n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %keys = memref.alloc(%n) : memref<?x2xi32>
  %m = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %row = memref.subview %keys[%i, 0] [1, 2] [1, 1] : memref<?x2xi32> to memref<2xi32, strided<[1], offset: ?>>
    %k = arith.index_cast %i : index to i32
    memref.store %k, %row[%c0] : memref<2xi32, strided<[1], offset: ?>>
    memref.store %k, %row[%c1] : memref<2xi32, strided<[1], offset: ?>>
  }
  %dim = memref.dim %m, %c0 : memref<?xi32>
  %r = scf.for %i = %c0 to %dim step %c1 iter_args(%acc = %zero) -> (i32) {
    %k = memref.load %keys[%i, %c1] : memref<?x2xi32>
    memref.store %k, %m[%i] : memref<?xi32>
    %o = arith.ori %acc, %k : i32
    scf.yield %o : i32
  }
  return %r : i32
}

// -----

// The second loop reads the lane after its own: B(i) would read what A(i+1)
// has not yet written. Not fused.
// CHECK-LABEL: func.func @next_lane(
// CHECK: scf.for
// CHECK: scf.for
func.func @next_lane(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %j = arith.addi %i, %c1 : index
    %y = memref.load %b[%j] : memref<?xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// A call of a function with no body may touch any memory. Not fused.
// CHECK-LABEL: func.func @call(
// CHECK: scf.for
// CHECK: func.call @g
// CHECK: scf.for
func.func private @g(f32) -> f32
func.func @call(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = func.call @g(%x) : (f32) -> f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %b[%i] : memref<?xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Calls of functions that touch no memory (through another such call, and
// a loop) are fused across; a loop whose callee has vector variants only
// with another the vectorizer widens, a loop whose callee has none only
// with another that stays scalar.
// CHECK-LABEL: func.func @pure_calls(
// CHECK: scf.for
// CHECK: func.call @lanewise
// CHECK: arith.mulf
// CHECK-NOT: scf.for
// CHECK: memref.store
// CHECK: scf.for
// CHECK: func.call @helper
// CHECK-NOT: scf.for
// CHECK: func.call @helper
// CHECK: scf.for
// CHECK: arith.addf
// CHECK-NOT: scf.for
// CHECK: return
func.func private @lanewise(%x: f32) -> f32 attributes {passthrough = [["vector-function-abi-variant", "_ZGV_LLVM_N8v_lanewise(lanewise_v8)"]]} {
  %y = func.call @helper(%x) : (f32) -> f32
  return %y : f32
}
func.func private @helper(%x: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %k = %c0 to %c4 step %c1 iter_args(%acc = %x) -> (f32) {
    %s = arith.mulf %acc, %acc : f32
    scf.yield %s : f32
  }
  return %r : f32
}
func.func @pure_calls(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %e = memref.alloc(%n) : memref<?xf32>
  %f = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = func.call @lanewise(%x) : (f32) -> f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %b[%i] : memref<?xf32>
    %z = arith.mulf %y, %y : f32
    memref.store %z, %c[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %c[%i] : memref<?xf32>
    %z = func.call @helper(%y) : (f32) -> f32
    memref.store %z, %d[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %d[%i] : memref<?xf32>
    %z = func.call @helper(%y) : (f32) -> f32
    memref.store %z, %e[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %e[%i] : memref<?xf32>
    %z = arith.addf %y, %y : f32
    memref.store %z, %f[%i] : memref<?xf32>
  }
  return
}

// -----

// loom-libm-to-arith's sinf: declared to touch no memory, with vector
// variants, so fused with a loop the vectorizer widens. A declaration that
// may touch memory is not fused across.
// CHECK-LABEL: func.func @libm_calls(
// CHECK: scf.for
// CHECK: llvm.call @sinf
// CHECK: arith.mulf
// CHECK: scf.for
// CHECK: llvm.call @other
// CHECK: scf.for
llvm.func @sinf(f32) -> f32 attributes {memory = #llvm.memory_effects<other = none, argMem = none, inaccessibleMem = none>, passthrough = [["vector-function-abi-variant", "_ZGV_LLVM_N8v_sinf(sinf_v8)"]]}
llvm.func @other(f32) -> f32 attributes {passthrough = [["vector-function-abi-variant", "_ZGV_LLVM_N8v_other(other_v8)"]]}
func.func @libm_calls(%a: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %d = memref.alloc(%n) : memref<?xf32>
  %e = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    %y = llvm.call @sinf(%x) : (f32) -> f32
    memref.store %y, %b[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %b[%i] : memref<?xf32>
    %z = arith.mulf %y, %y : f32
    memref.store %z, %c[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %c[%i] : memref<?xf32>
    %z = llvm.call @other(%y) : (f32) -> f32
    memref.store %z, %d[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %d[%i] : memref<?xf32>
    %z = arith.addf %y, %y : f32
    memref.store %z, %e[%i] : memref<?xf32>
  }
  return
}

// -----

// The first loop's carry is read in the second loop, which needs it whole;
// and a float carry, which the vectorizer would not widen. Neither fused.
// CHECK-LABEL: func.func @carries(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
func.func @carries(%a: memref<?xi32>, %f: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %fzero = arith.constant 0.0 : f32
  %b = memref.alloc(%n) : memref<?xi32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %x = memref.load %b[%i] : memref<?xi32>
    %o = arith.ori %acc, %x : i32
    scf.yield %o : i32
  }
  scf.for %i = %c0 to %n step %c1 {
    memref.store %r, %b[%i] : memref<?xi32>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %fzero) -> (f32) {
    %x = memref.load %f[%i] : memref<?xf32>
    %o = arith.addf %acc, %x : f32
    scf.yield %o : f32
  }
  return %s : f32
}

// -----

// A store between the loops. Not fused.
// CHECK-LABEL: func.func @store_between(
// CHECK: scf.for
// CHECK: memref.store
// CHECK: scf.for
func.func @store_between(%a: memref<?xf32>, %n: index, %v: f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
  }
  memref.store %v, %b[%c0] : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %b[%i] : memref<?xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  return
}

// -----

// Two arguments may be the same buffer, or overlap; and a view at offset 1
// of an allocation has element i at the allocation's i + 1, although both
// are indexed at i. Neither pair fused.
// CHECK-LABEL: func.func @aliases(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
func.func @aliases(%a: memref<?xf32>, %b: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %b[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %b[%i] : memref<?xf32>
    memref.store %y, %a[%i] : memref<?xf32>
  }
  %np1 = arith.addi %n, %c1 : index
  %m = memref.alloc(%np1) : memref<?xf32>
  %v = memref.subview %m[1] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: 1>>
  %w = memref.subview %m[0] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %a[%i] : memref<?xf32>
    memref.store %x, %v[%i] : memref<?xf32, strided<[1], offset: 1>>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %w[%i] : memref<?xf32, strided<[1]>>
    memref.store %y, %b[%i] : memref<?xf32>
  }
  return
}

// -----

// A gang's loops, of a constant trip count, fuse like any others; a loop
// that calls libm (powf) is not fused with one the vectorizer widens.
// CHECK-LABEL: func.func @gang_loops_and_libm(
// CHECK: scf.for %{{.*}} = %c0 to %c32
// CHECK-NOT: scf.for %{{.*}} = %c0 to %c32
// CHECK: math.powf
// CHECK: scf.for
// CHECK-NOT: math.powf
// CHECK: arith.addf
// CHECK-NOT: scf.for
func.func @gang_loops_and_libm(%a: memref<32xf32>, %f: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c32 = arith.constant 32 : index
  %b = memref.alloca() : memref<32xf32>
  scf.for %i = %c0 to %c32 step %c1 {
    %x = memref.load %a[%i] : memref<32xf32>
    memref.store %x, %b[%i] : memref<32xf32>
  }
  scf.for %i = %c0 to %c32 step %c1 {
    %y = memref.load %b[%i] : memref<32xf32>
    %z = arith.mulf %y, %y : f32
    memref.store %z, %a[%i] : memref<32xf32>
  }
  %g = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %x = memref.load %f[%i] : memref<?xf32>
    %y = math.powf %x, %x : f32
    memref.store %y, %g[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %y = memref.load %g[%i] : memref<?xf32>
    %z = arith.addf %y, %y : f32
    memref.store %z, %f[%i] : memref<?xf32>
  }
  return
}

// -----

// Five arguments, six allocations written: 30 pairs of an argument and an
// allocation that LLVM would check for overlap at run time (pairs of
// allocations it tells apart), past the 16 a fused loop may need. Not
// fused.
// CHECK-LABEL: func.func @too_many_buffers(
// CHECK-COUNT-2: scf.for
func.func @too_many_buffers(%x: memref<?xf32>, %y: memref<?xf32>,
                            %z: memref<?xf32>, %u: memref<?xf32>,
                            %w: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %b1 = memref.alloc(%n) : memref<?xf32>
  %b2 = memref.alloc(%n) : memref<?xf32>
  %b3 = memref.alloc(%n) : memref<?xf32>
  %b4 = memref.alloc(%n) : memref<?xf32>
  %b5 = memref.alloc(%n) : memref<?xf32>
  %b6 = memref.alloc(%n) : memref<?xf32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xf32>
    %v2 = memref.load %z[%i] : memref<?xf32>
    memref.store %v, %b1[%i] : memref<?xf32>
    memref.store %v, %b2[%i] : memref<?xf32>
    memref.store %v2, %b3[%i] : memref<?xf32>
  }
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %y[%i] : memref<?xf32>
    %v2 = memref.load %u[%i] : memref<?xf32>
    %v3 = memref.load %w[%i] : memref<?xf32>
    memref.store %v, %b4[%i] : memref<?xf32>
    memref.store %v2, %b5[%i] : memref<?xf32>
    memref.store %v3, %b6[%i] : memref<?xf32>
  }
  return
}

// -----

// Six allocations written next to an argument read, then an any() over
// one of them: 6 pairs to check (LLVM tells allocations apart). With a
// buffer that may be any of them (a loop's block argument) in its place,
// the vectorizer checks every pair of the alias set that buffer joins: 21.
// The first fused, the second not.
// CHECK-LABEL: func.func @fresh_buffers(
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK: return
// CHECK-LABEL: func.func @any_buffer(
// CHECK: scf.for
// CHECK: scf.for
// CHECK: scf.for
func.func @fresh_buffers(%x: memref<?xi32>, %n: index) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %b1 = memref.alloc(%n) : memref<?xi32>
  %b2 = memref.alloc(%n) : memref<?xi32>
  %b3 = memref.alloc(%n) : memref<?xi32>
  %b4 = memref.alloc(%n) : memref<?xi32>
  %b5 = memref.alloc(%n) : memref<?xi32>
  %b6 = memref.alloc(%n) : memref<?xi32>
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.load %x[%i] : memref<?xi32>
    memref.store %v, %b1[%i] : memref<?xi32>
    memref.store %v, %b2[%i] : memref<?xi32>
    memref.store %v, %b3[%i] : memref<?xi32>
    memref.store %v, %b4[%i] : memref<?xi32>
    memref.store %v, %b5[%i] : memref<?xi32>
    memref.store %v, %b6[%i] : memref<?xi32>
  }
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
    %v = memref.load %b1[%i] : memref<?xi32>
    %o = arith.ori %acc, %v : i32
    scf.yield %o : i32
  }
  return %r : i32
}
func.func @any_buffer(%x: memref<?xi32>, %n: index, %steps: index) -> memref<?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0 : i32
  %b1 = memref.alloc(%n) : memref<?xi32>
  %b2 = memref.alloc(%n) : memref<?xi32>
  %b3 = memref.alloc(%n) : memref<?xi32>
  %b4 = memref.alloc(%n) : memref<?xi32>
  %b5 = memref.alloc(%n) : memref<?xi32>
  %b6 = memref.alloc(%n) : memref<?xi32>
  %last = scf.for %k = %c0 to %steps step %c1 iter_args(%cur = %x) -> (memref<?xi32>) {
    scf.for %i = %c0 to %n step %c1 {
      %v = memref.load %cur[%i] : memref<?xi32>
      memref.store %v, %b1[%i] : memref<?xi32>
      memref.store %v, %b2[%i] : memref<?xi32>
      memref.store %v, %b3[%i] : memref<?xi32>
      memref.store %v, %b4[%i] : memref<?xi32>
      memref.store %v, %b5[%i] : memref<?xi32>
      memref.store %v, %b6[%i] : memref<?xi32>
    }
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (i32) {
      %v = memref.load %b1[%i] : memref<?xi32>
      %o = arith.ori %acc, %v : i32
      scf.yield %o : i32
    }
    %nonzero = arith.cmpi ne, %r, %zero : i32
    %next = arith.select %nonzero, %b6, %cur : memref<?xi32>
    scf.yield %next : memref<?xi32>
  }
  return %last : memref<?xi32>
}
