// A divergent loop pinned masked: the GPU backend refuses it.
func.func @grow(%x0: f32) -> f32 {
  %two = arith.constant 2.0 : f32
  %lim = arith.constant 100.0 : f32
  %r = scf.while (%x = %x0) : (f32) -> f32 {
    %go = arith.cmpf olt, %x, %lim : f32
    scf.condition(%go) %x : f32
  } do {
  ^bb0(%x: f32):
    %n = arith.mulf %x, %two : f32
    scf.yield %n : f32
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r : f32
}
func.func @main(%xs: tensor<?xf32> {loom.name = "xs"}) -> (tensor<?xf32> {loom.name = "ys"}) {
  %ys = loom.vmap @grow(%xs) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?xf32>
  return %ys : tensor<?xf32>
}
