//===- Passes.td - Loom dialect passes ---------------------*- tablegen -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// File organization: one section per pipeline stage, in pipeline order
// (vmap, then sharding); each pass says why it exists and shows a tiny
// before/after.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_TD
#define LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

//===----------------------------------------------------------------------===//
// vmap
//===----------------------------------------------------------------------===//

def LoomVmapPass : Pass<"loom-vmap", "ModuleOp"> {
  let summary = "Expand loom.vmap into calls of batched clones of the callee";
  let description = [{
    `loom.vmap` maps a scalar function over a batch axis. This pass makes the
    batching explicit: each `loom.vmap` becomes a `func.call` of a clone of
    the callee batched for the vmap's batchedness signature (one clone per
    signature and batch size), in which every value that may differ per lane
    carries the lanes as a new leading axis. `in_axes`/`out_axes` other than
    0 become `linalg.transpose` at the call boundary.

    Which values are batched comes from the batchedness analysis (a fixpoint
    over loop carries, as JAX's while batching rule). Each op is rewritten by
    its batching rule (`BatchingOpInterface`); an op that reads a per-lane
    value and has no rule stops the pass with a diagnostic that names it.

    Each loop is lowered one of three ways, and a remark at the loop says
    which and why, naming the carry and argument that make its predicate
    differ per lane:

    * `uniform`: the predicate is the same on every lane; the loop stays a
      scalar loop around a batched body, and carries that never meet a
      per-lane value stay unbatched.
    * `masked`: `while (any(active))`, the body on all lanes, each carry
      `select(active, new, old)`; the predicate is computed once per
      iteration; a nested divergent loop starts from the enclosing mask; a
      write into a buffer is a per-lane masked write, never a select of the
      whole buffer.
    * `per-lane`: an `scf.for` over lanes runs the original scalar loop on
      each lane: no masked work at all.

    `divergent=auto` takes uniform whenever it is legal and otherwise picks
    masked or per-lane with the cost model in `docs/vmap.md`; the
    `loom.strategy` attribute on a loop pins its strategy. Afterwards the
    attribute records what was decided on every while loop of a batched
    clone (`loom-localize-loops` trusts only a decided `masked`), and pins
    elsewhere are dropped (with a warning where no vmap batches the
    function, since such a pin never meant anything).

    Before:
    ```mlir
    func.func @f(%x: f32) -> f32 {
      %r = scf.while (%v = %x) : (f32) -> f32 {
        %go = arith.cmpf olt, %v, %ten : f32
        scf.condition(%go) %v : f32
      } do {
      ^bb0(%v: f32):
        %n = arith.addf %v, %one : f32
        scf.yield %n : f32
      }
      return %r : f32
    }
    %ys = loom.vmap @f(%xs) in_axes [0] out_axes [0]
        : (tensor<?xf32>) -> tensor<?xf32>
    ```
    After (masked; `sel` stands for a linalg.generic selecting lane by lane
    into its `outs`, so the carry is updated in place):
    ```mlir
    %ys = call @f_vmap_b(%xs) : (tensor<?xf32>) -> tensor<?xf32>
    func.func private @f_vmap_b(%x: tensor<?xf32>) -> tensor<?xf32> {
      %r:2 = scf.while (%v = %x, %a = %all) : (...) -> (...) {
        %go = arith.cmpf olt, %v, %tens : tensor<?xf32>
        %a2 = linalg.generic ins(%go) outs(%a) { and }   // a & go
        %any = loom.any %a2 along 0 : tensor<?xi1> -> i1
        scf.condition(%any) %v, %a2 : tensor<?xf32>, tensor<?xi1>
      } do {
      ^bb0(%v: tensor<?xf32>, %a2: tensor<?xi1>):
        %n = arith.addf %v, %ones : tensor<?xf32>
        %s = linalg.generic ins(%a2, %n) outs(%v) { sel }  // a2 ? n : v
        scf.yield %s, %a2 : tensor<?xf32>, tensor<?xi1>
      }
      return %r#0 : tensor<?xf32>
    }
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::loom::LoomDialect",
  ];
  let options = [
    Option<"divergent", "divergent", "::mlir::loom::DivergentLoops",
           /*default=*/"::mlir::loom::DivergentLoops::Auto",
           "Lowering of loops whose predicate differs per lane",
           [{::llvm::cl::values(
             clEnumValN(::mlir::loom::DivergentLoops::Auto, "auto",
                        "masked or per-lane, by the cost model"),
             clEnumValN(::mlir::loom::DivergentLoops::Masked, "masked",
                        "while(any(active)) with selected carries"),
             clEnumValN(::mlir::loom::DivergentLoops::PerLane, "per-lane",
                        "a loop over lanes around the scalar loop"))}]>,
    Option<"target", "target", "::mlir::loom::VmapTarget",
           /*default=*/"::mlir::loom::VmapTarget::CPU",
           "Where the batched code runs (input to the cost model)",
           [{::llvm::cl::values(
             clEnumValN(::mlir::loom::VmapTarget::CPU, "cpu",
                        "SIMD lanes on CPU cores"),
             clEnumValN(::mlir::loom::VmapTarget::GPU, "gpu",
                        "one GPU thread per lane"))}]>,
    Option<"simdWidth", "simd-width", "unsigned", /*default=*/"8",
           "Lanes one SIMD instruction processes (cost model)">,
    Option<"expectedDivergence", "expected-divergence", "double",
           /*default=*/"2.0",
           "Expected ratio of the slowest lane's trip count to the mean "
           "trip count, per divergent loop level (cost model)">,
    Option<"assumedBatch", "assumed-batch", "int64_t", /*default=*/"64",
           "Batch size the cost model assumes when it is dynamic">,
    Option<"maskedOpCost", "masked-op-cost", "double", /*default=*/"2.5",
           "Cost of one masked op on SIMD-width lanes, in scalar ops: its "
           "operands and results live in lane buffers, not registers "
           "(cost model)">,
  ];
}

#endif // LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_TD
