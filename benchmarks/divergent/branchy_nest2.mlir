// Two integer levels with an scf.if inside the inner loop: for each outer
// step i < n, an inner loop runs while j < i, taking one of two updates on
// the parity of i + j. Lanes with n <= 0 never enter; high divergence.
// suite: split=fit
// suite-input: ns i32 -8 40
// suite-input: seeds i32 1 1000
func.func @bn(%n: i32, %seed: i32) -> (i32, i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c3 = arith.constant 3 : i32
  %c7 = arith.constant 7 : i32
  %mask = arith.constant 65535 : i32
  %r:3 = scf.while (%i = %c0, %h = %seed, %cnt = %c0) : (i32, i32, i32) -> (i32, i32, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %h, %cnt : i32, i32, i32
  } do {
  ^bb0(%i: i32, %h: i32, %cnt: i32):
    %in:3 = scf.while (%j = %c0, %g = %h, %c = %cnt) : (i32, i32, i32) -> (i32, i32, i32) {
      %more = arith.cmpi slt, %j, %i : i32
      scf.condition(%more) %j, %g, %c : i32, i32, i32
    } do {
    ^bb0(%j: i32, %g: i32, %c: i32):
      %ij = arith.addi %i, %j : i32
      %bit = arith.andi %ij, %c1 : i32
      %odd = arith.cmpi ne, %bit, %c0 : i32
      %g1, %c1n = scf.if %odd -> (i32, i32) {
        %a = arith.muli %g, %c3 : i32
        %b = arith.addi %a, %j : i32
        %m = arith.andi %b, %mask : i32
        %cc = arith.addi %c, %c1 : i32
        scf.yield %m, %cc : i32, i32
      } else {
        %a = arith.shrui %g, %c1 : i32
        %b = arith.xori %a, %c7 : i32
        scf.yield %b, %c : i32, i32
      }
      %j1 = arith.addi %j, %c1 : i32
      scf.yield %j1, %g1, %c1n : i32, i32, i32
    }
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1, %in#1, %in#2 : i32, i32, i32
  }
  return %r#1, %r#2 : i32, i32
}
func.func @main(%ns: tensor<?xi32> {loom.name = "ns"}, %seeds: tensor<?xi32> {loom.name = "seeds"})
    -> (tensor<?xi32> {loom.name = "hash"}, tensor<?xi32> {loom.name = "odd"}) {
  %r:2 = loom.vmap @bn(%ns, %seeds) in_axes [0, 0] out_axes [0, 0]
      : (tensor<?xi32>, tensor<?xi32>) -> (tensor<?xi32>, tensor<?xi32>)
  return %r#0, %r#1 : tensor<?xi32>, tensor<?xi32>
}
