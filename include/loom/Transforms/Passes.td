//===- Passes.td - Dialect-independent Loom transforms -----*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TRANSFORMS_PASSES_TD
#define LOOM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def LoomScalarizeSmallTensors : Pass<"loom-scalarize-small-tensors"> {
  let summary = "Carry and choose small static tensors as scalars";
  let description = [{
    A lane's state is often a tiny tensor: JAX's `y` of shape `(1,)`, a
    threefry key `tensor<2xi32>`. One-shot bufferization gives every new
    value of such a carry its own buffer, so a loop that builds one per
    iteration allocates per iteration (or fails: "Yield operand is not
    equivalent to the corresponding iter bbArg"). Carrying the elements as
    scalars instead lets canonicalization fold the `tensor.extract` of each
    `tensor.from_elements`, and the loop allocates nothing. For the same
    reason a static `tensor.extract_slice` of a `tensor.from_elements` (a key
    taken out of a split) becomes a `tensor.from_elements` of the picked
    elements, and an `arith.select` between two small tensors selects
    element by element.

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

def LoomAllowFPContraction : Pass<"loom-allow-fp-contraction"> {
  let summary = "Let LLVM fuse a*b+c into a fused multiply-add";
  let description = [{
    Loom compiles without floating-point contraction by default, so the
    masked, per-lane and sharded forms of a program compute the same bits,
    and agree with JAX (XLA does not contract on CPU by default). This pass,
    run by `loom-to-llvm{fp-contraction=1}`, marks every `arith` float op
    with the `contract` fast-math flag, which LLVM honours per instruction
    when the target has FMA.
  }];
  let constructor = "::mlir::loom::createLoomAllowFPContraction()";
}

#endif // LOOM_TRANSFORMS_PASSES_TD
