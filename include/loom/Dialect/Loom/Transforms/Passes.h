//===- Passes.h - Loom dialect passes ---------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H
#define LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H

#include "loom/Support/Policies.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::loom {

// What is requested (loom/Support/Policies.h), as the pass options take it.
using ::loom::DivergentPolicy;
using ::loom::LoopSyncPolicy;

/// The words of `divergent=` (loom-vmap, loom-pipeline), spelled by
/// DivergentPolicy's toString.
inline llvm::cl::ValuesClass divergentPolicyValues() {
  return llvm::cl::values(
      clEnumValN(DivergentPolicy::Auto, toString(DivergentPolicy::Auto),
                 "masked or per-lane, by the cost model"),
      clEnumValN(DivergentPolicy::Masked, toString(DivergentPolicy::Masked),
                 "while(any(active)) with selected carries"),
      clEnumValN(DivergentPolicy::PerLane, toString(DivergentPolicy::PerLane),
                 "a loop over lanes around the scalar loop"),
      clEnumValN(DivergentPolicy::Gang, toString(DivergentPolicy::Gang),
                 "the outermost loop of a nest over gangs of gang-width "
                 "lanes, each a masked loop that leaves when its own lanes "
                 "are done"));
}

/// The words of `loop-sync=` (loom-localize-loops, loom-pipeline).
inline llvm::cl::ValuesClass loopSyncPolicyValues() {
  return llvm::cl::values(
      clEnumValN(LoopSyncPolicy::Auto, toString(LoopSyncPolicy::Auto),
                 "local exactly where that is legal"),
      clEnumValN(LoopSyncPolicy::Global, toString(LoopSyncPolicy::Global),
                 "keep every predicate collective"),
      clEnumValN(LoopSyncPolicy::Local, toString(LoopSyncPolicy::Local),
                 "remove them (an error where that changes results)"));
}

/// `loom-vmap target=`: where the batched code runs.
enum class VmapTarget { CPU, GPU };

/// The words of `target=` (loom-vmap, loom-pipeline).
inline llvm::cl::ValuesClass vmapTargetValues() {
  return llvm::cl::values(
      clEnumValN(VmapTarget::CPU, "cpu", "SIMD lanes on CPU cores"),
      clEnumValN(VmapTarget::GPU, "gpu", "one GPU thread per lane"));
}

#define GEN_PASS_DECL
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_TRANSFORMS_PASSES_H
