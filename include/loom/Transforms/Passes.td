//===- Passes.td - Dialect-independent Loom transforms -----*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TRANSFORMS_PASSES_TD
#define LOOM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LoomScalarizeLoopCarries : Pass<"loom-scalarize-loop-carries"> {
  let summary = "Carry small static tensors through scf.while as scalars";
  let description = [{
    A lane's state is often a tiny tensor: JAX's `y` of shape `(1,)`, a
    threefry key `tensor<2xi32>`. One-shot bufferization gives every new
    value of such a carry its own buffer, so a loop that builds one per
    iteration allocates per iteration (or fails: "Yield operand is not
    equivalent to the corresponding iter bbArg"). Carrying the elements as
    scalars instead lets canonicalization fold the `tensor.extract` of each
    `tensor.from_elements`, and the loop allocates nothing.

    ```mlir
    scf.while (%y = %init) : (tensor<1xf32>) -> tensor<1xf32> { ... }
    // becomes
    %e = tensor.extract %init[%c0] : tensor<1xf32>
    scf.while (%y0 = %e) : (f32) -> f32 {
      %y = tensor.from_elements %y0 : tensor<1xf32>
      ...
    }
    ```
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", "4",
           "Largest tensor, in elements, carried as scalars">
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

#endif // LOOM_TRANSFORMS_PASSES_TD
