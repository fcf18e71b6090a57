//===- LoopCostModel.cpp - masked vs per-lane for divergent loops ---------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Both lowerings do the same scalar work per lane and iteration; they differ
// in how many lanes one instruction serves and how many iterations run:
//
//   masked   = D^L * (ops_m + carries + 3) * ceil(B / W)
//   per-lane = B * ops
//
// B lanes, W SIMD width, L the depth of divergent loops nested in this one
// (itself included), D the expected ratio of the slowest lane's trip count
// to the mean one per level (a masked loop runs until its slowest lane is
// done, and nested levels compound). ops counts the loop's ops; ops_m counts
// ops the masked lowering can only run lane by lane (random numbers on a
// per-lane key, reads and writes at a per-lane index) W times. The masked
// loop also pays one select per carry, the mask update and the `any`.
//
//===----------------------------------------------------------------------===//

#include "LoopCostModel.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::loom;

/// True for an op whose masked batching rule is a loop over lanes.
static bool runsLaneByLane(Operation *op, const BatchednessAnalysis &analysis) {
  auto anyBatched = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return analysis.isBatched(v); });
  };
  if (isa<RandomKeyOp, RandomSplitOp, RandomFoldInOp, RandomBitsOp,
          RandomUniformOp, RandomNormalOp, RandomRandIntOp>(op))
    return anyBatched(op->getOperands());
  if (auto extract = dyn_cast<tensor::ExtractOp>(op))
    return anyBatched(extract.getIndices());
  if (auto insert = dyn_cast<tensor::InsertOp>(op))
    return anyBatched(insert.getIndices());
  if (auto slice = dyn_cast<tensor::ExtractSliceOp>(op))
    return anyBatched(slice.getOffsets());
  if (auto slice = dyn_cast<tensor::InsertSliceOp>(op))
    return anyBatched(slice.getOffsets());
  return false;
}

/// 1 + the deepest chain of divergent loops nested in `loop`.
static unsigned getDivergentDepth(Operation *loop,
                                  const BatchednessAnalysis &analysis) {
  unsigned deepest = 0;
  for (Region &region : loop->getRegions())
    region.walk([&](Operation *op) {
      if (isa<scf::WhileOp, scf::ForOp>(op) && analysis.isControlBatched(op))
        deepest = std::max(deepest, getDivergentDepth(op, analysis));
    });
  return 1 + deepest;
}

LoopCostDecision
mlir::loom::chooseDivergentStrategy(Operation *loop,
                                    const BatchednessAnalysis &analysis,
                                    const LoopCostParams &params) {
  if (params.target == VmapTarget::GPU)
    return {LoopStrategy::PerLane,
            "target=gpu: one thread per lane, so no lane waits for another "
            "and no grid-wide any"};

  double ops = 0, maskedOps = 0;
  unsigned width = std::max(1u, params.simdWidth);
  for (Region &region : loop->getRegions())
    region.walk([&](Operation *op) {
      if (op->hasTrait<OpTrait::IsTerminator>())
        return;
      ops += 1;
      maskedOps += runsLaneByLane(op, analysis) ? width : 1;
    });
  unsigned carries = loop->getNumResults();
  unsigned depth = getDivergentDepth(loop, analysis);
  double batch = std::max<int64_t>(1, params.batch);
  double divergence = std::max(1.0, params.expectedDivergence);

  double masked = std::pow(divergence, depth) * (maskedOps + carries + 3) *
                  std::ceil(batch / width);
  double perLane = batch * ops;
  bool chooseMasked = masked <= perLane;
  std::string why = llvm::formatv(
      "cost model: masked {0:F0} {1} per-lane {2:F0} ({3} divergent "
      "level{4}, {5} lanes{6}, SIMD width {7})",
      masked, chooseMasked ? "<=" : ">", perLane, depth, depth == 1 ? "" : "s",
      params.batch, params.batchAssumed ? " assumed" : "", width);
  return {chooseMasked ? LoopStrategy::Masked : LoopStrategy::PerLane, why};
}
