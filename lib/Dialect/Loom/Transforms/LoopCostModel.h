//===- LoopCostModel.h - Which lowering for a divergent loop ----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The cost model `loom-vmap divergent=auto` uses to choose among the masked,
// per-lane and gang lowerings of a loop whose predicate differs per lane. It is
// written down, with its reasoning, in docs/vmap.md; keep the two in step.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_DIALECT_LOOM_TRANSFORMS_LOOPCOSTMODEL_H
#define LOOM_LIB_DIALECT_LOOM_TRANSFORMS_LOOPCOSTMODEL_H

#include "loom/Analysis/Batchedness.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"

#include <optional>
#include <string>

namespace mlir::loom {

/// The defaults are loom-vmap's options' (Passes.td), the one place the
/// fitted constants live.
struct LoopCostParams {
  VmapTarget target = LoomVmapPassOptions{}.target;
  unsigned simdWidth = LoomVmapPassOptions{}.simdWidth;
  /// d in D(n) = 1 + d * log2(n): how much longer than the mean lane's the
  /// slowest of n lanes in lock-step runs, per divergent level.
  double divergencePerDoubling = LoomVmapPassOptions{}.divergencePerDoubling;
  /// What one op on `simdWidth` lanes costs, in scalar ops, by form: masked
  /// in sweeps, masked in one pass, a gang in sweeps, a gang in one pass.
  double maskedOpCost = LoomVmapPassOptions{}.maskedOpCost;
  double onePassOpCost = LoomVmapPassOptions{}.onePassOpCost;
  double gangOpCost = LoomVmapPassOptions{}.gangOpCost;
  double gangOnePassOpCost = LoomVmapPassOptions{}.gangOnePassOpCost;
  /// What one op the batched forms run lane by lane costs per lane: in the
  /// per-lane form, and in the masked and gang forms (per lane of the
  /// lock-step, idle ones included).
  double laneOpCost = LoomVmapPassOptions{}.laneOpCost;
  double batchedLaneOpCost = LoomVmapPassOptions{}.batchedLaneOpCost;
  /// What a read at a lane's index of a table every lane shares costs per
  /// lane in a loop masked in one pass (a load on every lane of the pass).
  double tableReadCost = LoomVmapPassOptions{}.tableReadCost;
  /// What one cycle of a per-lane trip's loop-carried dependency chain
  /// costs, in scalar ops: a trip takes its ops or its chain, the longer.
  double carriedLatencyCost = LoomVmapPassOptions{}.carriedLatencyCost;
  /// The static batch size, or the assumed one when it is dynamic.
  int64_t batch = LoomVmapPassOptions{}.assumedBatch;
  bool batchAssumed = true;
  /// Gangs: their width, the fixed cost of one gang (gathering and
  /// scattering its lanes), and what refill adds to every trip, in gang ops.
  unsigned gangWidth = LoomVmapPassOptions{}.gangWidth;
  double gangOverhead = LoomVmapPassOptions{}.gangOverhead;
  double refillOpCost = LoomVmapPassOptions{}.refillOpCost;
  /// Nonzero when the batched forms compute an f32 sin or log1p in vector
  /// arithmetic: its cost there in vector ops, where it is otherwise a
  /// lane-by-lane libm call. Per-lane code calls libm either way.
  double vectorLibmOps = LoomVmapPassOptions{}.vectorLibmOps;
  /// Whether gang is a candidate: the loop is the outermost divergent loop
  /// of its nest.
  bool mayGang = false;
  /// Whether to compile a second strategy next to the cheapest, for the
  /// runtime to time (refill when the cheapest runs in lock-step, else the
  /// cheapest lock-step one), when it is modelled at most `adaptiveFactor`
  /// times the cheapest's cost.
  bool adaptive = LoomVmapPassOptions{}.adaptive;
  double adaptiveFactor = LoomVmapPassOptions{}.adaptiveFactor;
};

/// A strategy of the outermost loop of a nest: gang with or without refill,
/// or another one.
struct LoopVariant {
  LoopStrategy strategy;
  bool refill = false;
};

/// "masked", "per-lane", "gang" or "gang with refill".
std::string describeVariant(LoopVariant variant);

struct LoopCostDecision {
  LoopStrategy strategy;
  /// With `Gang`: whether its slots refill.
  bool refill = false;
  /// One clause for the loop's remark, e.g. "cost model: masked 272 < ...".
  std::string why;
  /// The strategy compiled next to it, for the runtime to time against it
  /// (`params.adaptive`).
  std::optional<LoopVariant> alternative;
};

/// Chooses masked, per-lane or (when `params.mayGang`) gang, with or without
/// refill, for `loop` (an scf.while or scf.for whose control is batched under
/// `analysis`).
LoopCostDecision chooseDivergentStrategy(Operation *loop,
                                         const BatchednessAnalysis &analysis,
                                         const LoopCostParams &params);

} // namespace mlir::loom

#endif // LOOM_LIB_DIALECT_LOOM_TRANSFORMS_LOOPCOSTMODEL_H
