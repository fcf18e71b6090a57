// The Lorenz system stepped by Heun's method until a per-lane end time:
// float, a three-component state (tensor<3xf32>) in elementwise ops with
// constant vectors, medium body, one level, moderate divergence (end times
// spread over a factor of 10).
// suite: split=held-out
// suite-input: x0s f32 -8.0 8.0
// suite-input: y0s f32 -8.0 8.0
// suite-input: z0s f32 10.0 30.0
// suite-input: tends f32 0.03 0.3
func.func private @field(%y: tensor<3xf32>) -> tensor<3xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %x = tensor.extract %y[%c0] : tensor<3xf32>
  %v = tensor.extract %y[%c1] : tensor<3xf32>
  %z = tensor.extract %y[%c2] : tensor<3xf32>
  // (sigma (v - x), x (rho - z) - v, x v - beta z)
  %ax = tensor.from_elements %v, %x, %x : tensor<3xf32>
  %bx = tensor.from_elements %x, %z, %v : tensor<3xf32>
  %shift = arith.constant dense<[0.0, 28.0, 0.0]> : tensor<3xf32>
  %sel = arith.constant dense<[0.0, 1.0, 0.0]> : tensor<3xf32>
  %mul = arith.constant dense<[10.0, 1.0, 1.0]> : tensor<3xf32>
  %beta = arith.constant dense<[0.0, 0.0, 2.6666667]> : tensor<3xf32>
  %zs = tensor.from_elements %z, %z, %z : tensor<3xf32>
  %vs = tensor.from_elements %v, %v, %v : tensor<3xf32>
  %d = arith.subf %ax, %bx : tensor<3xf32>
  %sd = arith.mulf %mul, %d : tensor<3xf32>
  %rz = arith.subf %shift, %zs : tensor<3xf32>
  %xrz = arith.mulf %ax, %rz : tensor<3xf32>
  %xrzv = arith.subf %xrz, %vs : tensor<3xf32>
  %mid = arith.mulf %sel, %xrzv : tensor<3xf32>
  %xv = arith.mulf %ax, %bx : tensor<3xf32>
  %bz = arith.mulf %beta, %zs : tensor<3xf32>
  %last = arith.subf %xv, %bz : tensor<3xf32>
  %d0 = tensor.extract %sd[%c0] : tensor<3xf32>
  %d1 = tensor.extract %mid[%c1] : tensor<3xf32>
  %d2 = tensor.extract %last[%c2] : tensor<3xf32>
  %out = tensor.from_elements %d0, %d1, %d2 : tensor<3xf32>
  return %out : tensor<3xf32>
}

func.func @heun(%x0: f32, %y0: f32, %z0: f32, %tend: f32)
    -> (i32, f32, f32, f32) {
  %zero = arith.constant 0.0 : f32
  %dt = arith.constant 0.001 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %h = arith.constant dense<0.001> : tensor<3xf32>
  %half = arith.constant dense<0.5> : tensor<3xf32>
  %s0 = tensor.from_elements %x0, %y0, %z0 : tensor<3xf32>
  %r:3 = scf.while (%t = %zero, %s = %s0, %n = %c0)
      : (f32, tensor<3xf32>, i32) -> (f32, tensor<3xf32>, i32) {
    %go = arith.cmpf olt, %t, %tend : f32
    scf.condition(%go) %t, %s, %n : f32, tensor<3xf32>, i32
  } do {
  ^bb0(%t: f32, %s: tensor<3xf32>, %n: i32):
    %k1 = func.call @field(%s) : (tensor<3xf32>) -> tensor<3xf32>
    %e1 = arith.mulf %h, %k1 : tensor<3xf32>
    %p = arith.addf %s, %e1 : tensor<3xf32>
    %k2 = func.call @field(%p) : (tensor<3xf32>) -> tensor<3xf32>
    %ks = arith.addf %k1, %k2 : tensor<3xf32>
    %avg = arith.mulf %ks, %half : tensor<3xf32>
    %e2 = arith.mulf %h, %avg : tensor<3xf32>
    %s1 = arith.addf %s, %e2 : tensor<3xf32>
    %t1 = arith.addf %t, %dt : f32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %t1, %s1, %n1 : f32, tensor<3xf32>, i32
  }
  %c0i = arith.constant 0 : index
  %c1i = arith.constant 1 : index
  %c2i = arith.constant 2 : index
  %x = tensor.extract %r#1[%c0i] : tensor<3xf32>
  %y = tensor.extract %r#1[%c1i] : tensor<3xf32>
  %z = tensor.extract %r#1[%c2i] : tensor<3xf32>
  return %r#2, %x, %y, %z : i32, f32, f32, f32
}

func.func @main(%x0s: tensor<?xf32> {loom.name = "x0s"},
                %y0s: tensor<?xf32> {loom.name = "y0s"},
                %z0s: tensor<?xf32> {loom.name = "z0s"},
                %tends: tensor<?xf32> {loom.name = "tends"})
    -> (tensor<?xi32> {loom.name = "steps"}, tensor<?xf32> {loom.name = "x"},
        tensor<?xf32> {loom.name = "y"}, tensor<?xf32> {loom.name = "z"}) {
  %r:4 = loom.vmap @heun(%x0s, %y0s, %z0s, %tends) in_axes [0, 0, 0, 0]
      out_axes [0, 0, 0, 0]
      : (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
     -> (tensor<?xi32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>)
  return %r#0, %r#1, %r#2, %r#3
      : tensor<?xi32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
