//===- LoopCostModel.h - masked vs per-lane for divergent loops -*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The cost model `loom-vmap divergent=auto` uses to choose between the masked
// and the per-lane lowering of a loop whose predicate differs per lane. It is
// written down, with its reasoning, in docs/vmap.md; keep the two in step.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_DIALECT_LOOM_TRANSFORMS_LOOPCOSTMODEL_H
#define LOOM_LIB_DIALECT_LOOM_TRANSFORMS_LOOPCOSTMODEL_H

#include "loom/Analysis/Batchedness.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"

#include <string>

namespace mlir::loom {

/// The defaults are loom-vmap's options' (Passes.td), the one place the
/// fitted constants live.
struct LoopCostParams {
  VmapTarget target = LoomVmapPassOptions{}.target;
  unsigned simdWidth = LoomVmapPassOptions{}.simdWidth;
  double expectedDivergence = LoomVmapPassOptions{}.expectedDivergence;
  /// What one masked op on `simdWidth` lanes costs, in scalar ops.
  double maskedOpCost = LoomVmapPassOptions{}.maskedOpCost;
  /// What one op run lane by lane costs per lane, in scalar ops.
  double laneOpCost = LoomVmapPassOptions{}.laneOpCost;
  /// The static batch size, or the assumed one when it is dynamic.
  int64_t batch = LoomVmapPassOptions{}.assumedBatch;
  bool batchAssumed = true;
  /// `maskedOpCost` for a loop whose masked form is one pass over the lanes
  /// per iteration (registers, vector code), not a sweep per op.
  double onePassOpCost = LoomVmapPassOptions{}.onePassOpCost;
  /// Gangs: the slowest over the mean lane's trips within a gang per level,
  /// the fixed cost of one gang (gathering and scattering its lanes), and
  /// what refill adds to every trip, in masked ops.
  unsigned gangWidth = LoomVmapPassOptions{}.gangWidth;
  double gangDivergence = LoomVmapPassOptions{}.gangDivergence;
  double gangOverhead = LoomVmapPassOptions{}.gangOverhead;
  double refillOpCost = LoomVmapPassOptions{}.refillOpCost;
  /// Whether gang is a candidate: the loop is the outermost divergent loop
  /// of its nest.
  bool mayGang = false;
};

struct LoopCostDecision {
  LoopStrategy strategy;
  /// With `Gang`: whether its slots refill.
  bool refill = false;
  /// One clause for the loop's remark, e.g. "cost model: masked 272 < ...".
  std::string why;
};

/// Chooses masked, per-lane or (when `params.mayGang`) gang, with or without
/// refill, for `loop` (an scf.while or scf.for whose control is batched under
/// `analysis`).
LoopCostDecision chooseDivergentStrategy(Operation *loop,
                                         const BatchednessAnalysis &analysis,
                                         const LoopCostParams &params);

} // namespace mlir::loom

#endif // LOOM_LIB_DIALECT_LOOM_TRANSFORMS_LOOPCOSTMODEL_H
