// Sum of decimal digits: int, light body, one level; lanes with n <= 0
// never enter the loop (zero-trip lanes), the others take 1 to 6 steps.
// suite: split=fit
// suite-input: ns i32 -30000 90000
func.func @digits(%n0: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c10 = arith.constant 10 : i32
  %r:3 = scf.while (%n = %n0, %s = %c0, %k = %c0) : (i32, i32, i32) -> (i32, i32, i32) {
    %go = arith.cmpi sgt, %n, %c0 : i32
    scf.condition(%go) %n, %s, %k : i32, i32, i32
  } do {
  ^bb0(%n: i32, %s: i32, %k: i32):
    %d = arith.remsi %n, %c10 : i32
    %q = arith.divsi %n, %c10 : i32
    %s1 = arith.addi %s, %d : i32
    %k1 = arith.addi %k, %c1 : i32
    scf.yield %q, %s1, %k1 : i32, i32, i32
  }
  return %r#1, %r#2 : i32, i32
}
func.func @main(%ns: tensor<?xi32> {loom.name = "ns"})
    -> (tensor<?xi32> {loom.name = "sum"}, tensor<?xi32> {loom.name = "digits"}) {
  %r:2 = loom.vmap @digits(%ns) in_axes [0] out_axes [0, 0]
      : (tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}
