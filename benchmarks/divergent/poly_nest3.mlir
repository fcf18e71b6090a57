// Three integer levels with a heavy innermost body (a degree-4 polynomial
// hash): i < n, j <= i mod 5, k < j + (n mod 3). Lanes with n <= 0 never
// enter; trip counts grow with n.
// suite: split=held-out
// suite-input: ns i32 -4 24
func.func @p3(%n: i32) -> (i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c5 = arith.constant 5 : i32
  %k1 = arith.constant 2654435 : i32
  %k2 = arith.constant 40503 : i32
  %k3 = arith.constant 977 : i32
  %extra = arith.remsi %n, %c3 : i32
  %r:2 = scf.while (%i = %c0, %h = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %h : i32, i32
  } do {
  ^bb0(%i: i32, %h: i32):
    %jm = arith.remsi %i, %c5 : i32
    %mid:2 = scf.while (%j = %c0, %h1 = %h) : (i32, i32) -> (i32, i32) {
      %go = arith.cmpi sle, %j, %jm : i32
      scf.condition(%go) %j, %h1 : i32, i32
    } do {
    ^bb0(%j: i32, %h1: i32):
      %kb = arith.addi %j, %extra : i32
      %in:2 = scf.while (%k = %c0, %h2 = %h1) : (i32, i32) -> (i32, i32) {
        %go = arith.cmpi slt, %k, %kb : i32
        scf.condition(%go) %k, %h2 : i32, i32
      } do {
      ^bb0(%k: i32, %h2: i32):
        %x0 = arith.addi %h2, %k : i32
        %x1 = arith.muli %x0, %k1 : i32
        %x2 = arith.addi %x1, %i : i32
        %x3 = arith.muli %x2, %x0 : i32
        %x4 = arith.addi %x3, %k2 : i32
        %x5 = arith.muli %x4, %x0 : i32
        %x6 = arith.xori %x5, %j : i32
        %x7 = arith.muli %x6, %k3 : i32
        %x8 = arith.shrui %x7, %c3 : i32
        %x9 = arith.xori %x8, %x1 : i32
        %kn = arith.addi %k, %c1 : i32
        scf.yield %kn, %x9 : i32, i32
      }
      %jn = arith.addi %j, %c1 : i32
      scf.yield %jn, %in#1 : i32, i32
    }
    %in1 = arith.addi %i, %c1 : i32
    scf.yield %in1, %mid#1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%ns: tensor<?xi32> {loom.name = "ns"})
    -> (tensor<?xi32> {loom.name = "hash"}) {
  %r = loom.vmap @p3(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
