//===- Passes.td - Loom conversion passes ------------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// File organization: one section per conversion, in pipeline order. Every
// conversion is also a stage of the `loom-to-llvm` pipeline, which is
// registered in lib/Conversion/Pipelines.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_PASSES_TD
#define LOOM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// LoomToStandard
//===----------------------------------------------------------------------===//

def ConvertLoomToStandard : Pass<"convert-loom-to-standard", "ModuleOp"> {
  let summary = "Lower loom reductions and random numbers to upstream dialects";
  let description = [{
    Loom's ops exist so that vmap and sharding can recognise them; once those
    passes have run, each becomes upstream IR that bufferizes and lowers like
    any other:

    * `loom.any`/`all`/`sum`/`max`/`min` become `linalg.reduce` over the axis,
      which `convert-linalg-to-loops` turns into loops in increasing index
      order (the order that makes float sums independent of sharding);
    * `loom.random.*` become `arith` ops on 32-bit words calling one private
      `@__loom_threefry2x32` function per module, inside `tensor.generate`
      for tensor results. Being plain arith, they vectorize and can run on a
      GPU. `normal` calls a private `@__loom_erfinv_f32` that evaluates
      XLA's float32 `erfinv` polynomial (MLIR 19 has no `math.erfinv`).

    ```mlir
    %k = loom.random.key %seed : i32
    // becomes
    %c0 = arith.constant 0 : i32
    %k = tensor.from_elements %c0, %seed : tensor<2xi32>
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect", "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect"
  ];
}

#endif // LOOM_CONVERSION_PASSES_TD
