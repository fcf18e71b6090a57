// Programs for ../traps.mlir: integer division and remainder that the
// scalar program never runs with a zero divisor (or INT_MIN / -1), but a
// batched program would, on finished lanes of a masked loop and on the
// branch a lane does not take.

// 100/d + 100/(d-1) + ... + 100/1: the loop stops before d reaches 0.
func.func @divloop(%x: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c100 = arith.constant 100 : i32
  %r:2 = scf.while (%d = %x, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %d, %c0 : i32
    scf.condition(%go) %d, %acc : i32, i32
  } do {
  ^bb0(%d: i32, %acc: i32):
    %q = arith.divsi %c100, %d : i32
    %a = arith.addi %acc, %q : i32
    %d1 = arith.subi %d, %c1 : i32
    scf.yield %d1, %a : i32, i32
  }
  return %r#1 : i32
}
func.func @divloop_main(%a: tensor<?xi32> {loom.name = "a"}) -> (tensor<?xi32> {loom.name = "r"}) {
  %r = loom.vmap @divloop(%a) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// Every remainder and unsigned division in the loop: d counts down to 1.
func.func @remloop(%x: i32) -> (i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c1000 = arith.constant 1000 : i32
  %r:4 = scf.while (%d = %x, %s = %c0, %u = %c0, %v = %c0) : (i32, i32, i32, i32) -> (i32, i32, i32, i32) {
    %go = arith.cmpi sgt, %d, %c0 : i32
    scf.condition(%go) %d, %s, %u, %v : i32, i32, i32, i32
  } do {
  ^bb0(%d: i32, %s: i32, %u: i32, %v: i32):
    %rs = arith.remsi %c1000, %d : i32
    %ru = arith.remui %c1000, %d : i32
    %qu = arith.divui %c1000, %d : i32
    %s1 = arith.addi %s, %rs : i32
    %u1 = arith.addi %u, %ru : i32
    %v1 = arith.addi %v, %qu : i32
    %d1 = arith.subi %d, %c1 : i32
    scf.yield %d1, %s1, %u1, %v1 : i32, i32, i32, i32
  }
  return %r#1, %r#2, %r#3 : i32, i32, i32
}
func.func @remloop_main(%a: tensor<?xi32> {loom.name = "a"})
    -> (tensor<?xi32> {loom.name = "s"}, tensor<?xi32> {loom.name = "u"}, tensor<?xi32> {loom.name = "v"}) {
  %s, %u, %v = loom.vmap @remloop(%a) in_axes [0] out_axes [0, 0, 0]
      : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>)
  return %s, %u, %v : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}

// A per-lane branch: the then branch divides by x, taken only where x is
// neither 0 nor -1 (so neither 7/0 nor INT_MIN / -1 is ever computed); the
// else branch takes the remainder by x+2, taken only where x is 0 or -1.
func.func @branch(%x: i32, %n: i32 {loom.name = "n", loom.default = -2147483648 : i32}) -> i32 {
  %c0 = arith.constant 0 : i32
  %cm1 = arith.constant -1 : i32
  %c1 = arith.constant 1 : i32
  %nz = arith.cmpi ne, %x, %c0 : i32
  %nm1 = arith.cmpi ne, %x, %cm1 : i32
  %safe = arith.andi %nz, %nm1 : i1
  %r = scf.if %safe -> i32 {
    %q = arith.divsi %n, %x : i32
    scf.yield %q : i32
  } else {
    %c2 = arith.constant 2 : i32
    %x2 = arith.addi %x, %c2 : i32
    %m = arith.remsi %n, %x2 : i32
    scf.yield %m : i32
  }
  return %r : i32
}
func.func @branch_main(%a: tensor<?xi32> {loom.name = "a"}, %n: i32 {loom.name = "n", loom.default = -2147483648 : i32})
    -> (tensor<?xi32> {loom.name = "r"}) {
  %r = loom.vmap @branch(%a, %n) in_axes [0, none] out_axes [0] : (tensor<?xi32>, i32) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// A division every lane shares, in a branch that no lane may take: the
// scalar program divides only where x > 100 (and then n != 0).
func.func @shared(%x: i32, %n: i32 {loom.name = "n", loom.default = 0 : i32}) -> i32 {
  %c100 = arith.constant 100 : i32
  %big = arith.cmpi sgt, %x, %c100 : i32
  %r = scf.if %big -> i32 {
    %q = arith.divsi %c100, %n : i32
    %s = arith.addi %x, %q : i32
    scf.yield %s : i32
  } else {
    scf.yield %x : i32
  }
  return %r : i32
}
func.func @shared_main(%a: tensor<?xi32> {loom.name = "a"}, %n: i32 {loom.name = "n", loom.default = 0 : i32})
    -> (tensor<?xi32> {loom.name = "r"}) {
  %r = loom.vmap @shared(%a, %n) in_axes [0, none] out_axes [0] : (tensor<?xi32>, i32) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

// A table read at a lane's own index, in a loop that stops at the table's
// end: in one pass over the lanes, a lane that has left holds the index it
// left with (8, one past the end), and reads in bounds only if the read is
// kept so. The predicate reads the table too (at i mod 8).
func.func @table(%n: i32) -> (i32, i32) {
  %t = arith.constant dense<[1, 2, 4, 8, 16, 32, 64, 128]> : tensor<8xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %end = arith.minsi %n, %c8 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi slt, %i, %end : i32
    %low = arith.andi %i, %c7 : i32
    %lx = arith.index_cast %low : i32 to index
    %v = tensor.extract %t[%lx] : tensor<8xi32>
    %set = arith.cmpi sgt, %v, %c0 : i32
    %go = arith.andi %more, %set : i1
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %ix = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%ix] : tensor<8xi32>
    %acc1 = arith.addi %acc, %v : i32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %acc1 : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
func.func @table_main(%a: tensor<?xi32> {loom.name = "a"})
    -> (tensor<?xi32> {loom.name = "i"}, tensor<?xi32> {loom.name = "acc"}) {
  %r:2 = loom.vmap @table(%a) in_axes [0] out_axes [0, 0] : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}

// The same loop reading a table every lane shares from an argument.
func.func @table_arg(%n: i32, %t: tensor<8xi32>) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %end = arith.minsi %n, %c8 : i32
  %r:2 = scf.while (%i = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi slt, %i, %end : i32
    scf.condition(%more) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %ix = arith.index_cast %i : i32 to index
    %v = tensor.extract %t[%ix] : tensor<8xi32>
    %acc1 = arith.addi %acc, %v : i32
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %acc1 : i32, i32
  }
  return %r#0, %r#1 : i32, i32
}
func.func @table_arg_main(%a: tensor<?xi32> {loom.name = "a"}, %t: tensor<8xi32> {loom.name = "t"})
    -> (tensor<?xi32> {loom.name = "i"}, tensor<?xi32> {loom.name = "acc"}) {
  %r:2 = loom.vmap @table_arg(%a, %t) in_axes [0, none] out_axes [0, 0] : (tensor<?xi32>, tensor<8xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}
