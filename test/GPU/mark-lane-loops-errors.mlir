// RUN: loom-opt %s -loom-mark-lane-loops -verify-diagnostics

// A loop decided masked (a pin in the program) has no GPU lowering.
func.func @masked(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{cannot run on the GPU: this loop was decided masked, and the GPU backend runs divergent loops per lane}}
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %m = arith.cmpf olt, %y, %y : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    scf.yield %y : tensor<?xf32>
  } attributes {loom.strategy = #loom.strategy<masked>}
  return %r : tensor<?xf32>
}
