// Subtraction GCD: int, light body, one level, high divergence (trip counts
// from 1 to a few hundred), the branch as a select.
// suite: split=fit
// suite-input: as i32 1 400
// suite-input: bs i32 1 300
func.func @gcd(%a0: i32, %b0: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:3 = scf.while (%a = %a0, %b = %b0, %n = %c0) : (i32, i32, i32) -> (i32, i32, i32) {
    %go = arith.cmpi ne, %a, %b : i32
    scf.condition(%go) %a, %b, %n : i32, i32, i32
  } do {
  ^bb0(%a: i32, %b: i32, %n: i32):
    %gt = arith.cmpi sgt, %a, %b : i32
    %amb = arith.subi %a, %b : i32
    %bma = arith.subi %b, %a : i32
    %a1 = arith.select %gt, %amb, %a : i32
    %b1 = arith.select %gt, %b, %bma : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %a1, %b1, %n1 : i32, i32, i32
  }
  return %r#0, %r#2 : i32, i32
}
func.func @main(%as: tensor<?xi32> {loom.name = "as"}, %bs: tensor<?xi32> {loom.name = "bs"})
    -> (tensor<?xi32> {loom.name = "g"}, tensor<?xi32> {loom.name = "steps"}) {
  %r:2 = loom.vmap @gcd(%as, %bs) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}
