// Three float levels with light bodies and low divergence: every lane's
// trip counts are within a few of each other (t < a, s < t * b, u < s).
// suite: split=fit
// suite-input: as f32 5.0 6.0
// suite-input: bs f32 0.9 1.1
func.func @f3(%a: f32, %b: f32) -> (f32) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %step = arith.constant 0.75 : f32
  %r:2 = scf.while (%t = %zero, %acc = %zero) : (f32, f32) -> (f32, f32) {
    %go = arith.cmpf olt, %t, %a : f32
    scf.condition(%go) %t, %acc : f32, f32
  } do {
  ^bb0(%t: f32, %acc: f32):
    %lim = arith.mulf %t, %b : f32
    %mid:2 = scf.while (%s = %zero, %a1 = %acc) : (f32, f32) -> (f32, f32) {
      %go = arith.cmpf olt, %s, %lim : f32
      scf.condition(%go) %s, %a1 : f32, f32
    } do {
    ^bb0(%s: f32, %a1: f32):
      %in:2 = scf.while (%u = %zero, %a2 = %a1) : (f32, f32) -> (f32, f32) {
        %go = arith.cmpf olt, %u, %s : f32
        scf.condition(%go) %u, %a2 : f32, f32
      } do {
      ^bb0(%u: f32, %a2: f32):
        %p = arith.mulf %u, %b : f32
        %a3 = arith.addf %a2, %p : f32
        %u1 = arith.addf %u, %step : f32
        scf.yield %u1, %a3 : f32, f32
      }
      %s1 = arith.addf %s, %step : f32
      scf.yield %s1, %in#1 : f32, f32
    }
    %t1 = arith.addf %t, %one : f32
    scf.yield %t1, %mid#1 : f32, f32
  }
  return %r#1 : f32
}
func.func @main(%as: tensor<?xf32> {loom.name = "as"}, %bs: tensor<?xf32> {loom.name = "bs"})
    -> (tensor<?xf32> {loom.name = "acc"}) {
  %r = loom.vmap @f3(%as, %bs) in_axes [0, 0] out_axes [0]
      : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
