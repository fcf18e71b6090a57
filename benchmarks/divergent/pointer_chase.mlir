// Pointer chasing through a 32-entry table until slot 0 or a cap of 64
// hops: int, light body, one level, a read at a per-lane index every step
// (tensor.extract at a lane-dependent index), the cap passed as a shared
// scalar.
// suite: split=fit
// suite-input: starts i32 0 31
// suite-input: cap i32 64
func.func @chase(%s0: i32, %cap: i32) -> (i32, i32) {
  %table = arith.constant dense<[0, 5, 9, 14, 3, 22, 7, 30, 1, 18, 27, 2, 11, 25, 6, 19, 28, 4, 13, 31, 8, 16, 24, 10, 29, 12, 20, 15, 23, 17, 26, 21]> : tensor<32xi32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.while (%p = %s0, %n = %c0, %acc = %c0) : (i32, i32, i32) -> (i32, i32, i32) {
    %nz = arith.cmpi ne, %p, %c0 : i32
    %room = arith.cmpi slt, %n, %cap : i32
    %go = arith.andi %nz, %room : i1
    scf.condition(%go) %p, %n, %acc : i32, i32, i32
  } do {
  ^bb0(%p: i32, %n: i32, %acc: i32):
    %i = arith.index_cast %p : i32 to index
    %next = tensor.extract %table[%i] : tensor<32xi32>
    %acc1 = arith.addi %acc, %next : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %next, %n1, %acc1 : i32, i32, i32
  }
  return %r#1, %r#2 : i32, i32
}
func.func @main(%starts: tensor<?xi32> {loom.name = "starts"}, %cap: i32 {loom.name = "cap"})
    -> (tensor<?xi32> {loom.name = "hops"}, tensor<?xi32> {loom.name = "sum"}) {
  %r:2 = loom.vmap @chase(%starts, %cap) in_axes [0, none] out_axes [0, 0]
      : (tensor<?xi32>, i32) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}
