// Programs for ../division.mlir: ceil and floor integer division, which
// convert-arith-to-llvm cannot lower by itself.

// One lane: the three divisions where b is not 0 (else 0), and
// sum_k (floor((a - k) / b) xor ceil((a - k) / b)) for k < n while b != 0.
func.func @divs(%a: i32, %b: i32, %n: i32) -> (i32, i32, i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %nz = arith.cmpi ne, %b, %c0 : i32
  %q:3 = scf.if %nz -> (i32, i32, i32) {
    %c = arith.ceildivsi %a, %b : i32
    %f = arith.floordivsi %a, %b : i32
    %u = arith.ceildivui %a, %b : i32
    scf.yield %c, %f, %u : i32, i32, i32
  } else {
    scf.yield %c0, %c0, %c0 : i32, i32, i32
  }
  %r:2 = scf.while (%k = %c0, %acc = %c0) : (i32, i32) -> (i32, i32) {
    %more = arith.cmpi slt, %k, %n : i32
    %go = arith.andi %more, %nz : i1
    scf.condition(%go) %k, %acc : i32, i32
  } do {
  ^bb0(%k: i32, %acc: i32):
    %x = arith.subi %a, %k : i32
    %f = arith.floordivsi %x, %b : i32
    %c = arith.ceildivsi %x, %b : i32
    %t = arith.xori %f, %c : i32
    %acc1 = arith.addi %acc, %t : i32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %k1, %acc1 : i32, i32
  }
  return %q#0, %q#1, %q#2, %r#1 : i32, i32, i32, i32
}
func.func @divs_main(%a: tensor<?xi32> {loom.name = "a"}, %b: tensor<?xi32> {loom.name = "b"}, %n: tensor<?xi32> {loom.name = "n"})
    -> (tensor<?xi32> {loom.name = "c"}, tensor<?xi32> {loom.name = "f"}, tensor<?xi32> {loom.name = "u"}, tensor<?xi32> {loom.name = "acc"}) {
  %r:4 = loom.vmap @divs(%a, %b, %n) in_axes [0, 0, 0] out_axes [0, 0, 0, 0]
      : (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}

// No vmap: the same divisions elementwise on whole tensors (a divisor of 0
// replaced by 1 first).
func.func @tensors(%a: tensor<?xi32> {loom.name = "a"}, %b: tensor<?xi32> {loom.name = "b"})
    -> (tensor<?xi32> {loom.name = "c"}, tensor<?xi32> {loom.name = "f"}, tensor<?xi32> {loom.name = "u"}) {
  %c0 = arith.constant 0 : index
  %len = tensor.dim %b, %c0 : tensor<?xi32>
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %e = tensor.empty(%len) : tensor<?xi32>
  %zeros = linalg.fill ins(%zero : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
  %ones = linalg.fill ins(%one : i32) outs(%e : tensor<?xi32>) -> tensor<?xi32>
  %z = arith.cmpi eq, %b, %zeros : tensor<?xi32>
  %d = arith.select %z, %ones, %b : tensor<?xi1>, tensor<?xi32>
  %c = arith.ceildivsi %a, %d : tensor<?xi32>
  %f = arith.floordivsi %a, %d : tensor<?xi32>
  %u = arith.ceildivui %a, %d : tensor<?xi32>
  return %c, %f, %u : tensor<?xi32>, tensor<?xi32>, tensor<?xi32>
}
