//===- LoopCostModel.cpp - masked vs per-lane for divergent loops ---------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Both lowerings do the same scalar work per lane and iteration; they differ
// in how many lanes one instruction serves and how many iterations run:
//
//   masked   = D^L * (c * (ops + carries + 3) * ceil(B / W) + l * lane * B)
//   per-lane = B * (ops + l * lane)
//   gang     = G^L * (c * (ops + carries + 3) * ceil(B / W) + l * lane * B)
//              + o * ceil(B / Wg)
//   refill   = G^(L-1) * (c * (ops + carries + 3 + r) * ceil(B / W)
//              + l * lane * B)
//
// B lanes, W SIMD width, L the depth of divergent loops nested in this one
// (itself included), D the expected ratio of the slowest lane's trip count
// to the mean one per level (a masked loop runs until its slowest lane is
// done, and nested levels compound), c what one masked op on W lanes costs
// in scalar ops: c1 when every level of the nest is masked in one pass over
// the lanes per iteration (SCFWhileMasked.cpp: the lanes' state stays in
// registers and vector code), else c (a sweep over lane buffers in memory
// per op, where a per-lane loop keeps them in registers). `ops` counts the
// loop's ops that the masked lowering runs on W lanes at once; `lane` those it
// can only run lane by lane (random numbers on a per-lane key, reads and writes
// at a per-lane index, and transcendental math, which becomes a C library call
// per lane), which cost `l` scalar ops each in either lowering. Ops of a
// called function count where they are called. The masked loop also pays
// one select per carry, the mask update and the `any`. A gang runs the
// masked nest on Wg lanes: its ops cost what masked ops cost, its lanes
// wait only for the slowest of the gang (G, per level), and each gang pays o
// to gather and scatter its lanes. Refill keeps the outermost level's
// slots busy (no G for it, and no gangs to start) at r masked ops a trip
// for retiring and taking lanes. The constants are fitted by
// benchmarks/fit-cost-model.py on half of the divergent suite
// (docs/vmap.md); their defaults are the pass options'.
//
//===----------------------------------------------------------------------===//

#include "LoopCostModel.h"
#include "BatchingModels/SCFWhileMasked.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
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
  // convert-math-to-libm: one call per lane, vectorized or not. (sqrt, abs,
  // fma, rounding have vector instructions.)
  if (isa<math::SinOp, math::CosOp, math::TanOp, math::AsinOp, math::AcosOp,
          math::AtanOp, math::Atan2Op, math::SinhOp, math::CoshOp, math::TanhOp,
          math::AsinhOp, math::AcoshOp, math::AtanhOp, math::ExpOp,
          math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op, math::Log10Op,
          math::Log1pOp, math::PowFOp, math::ErfOp, math::CbrtOp>(op))
    return anyBatched(op->getOperands());
  // x86 has no vector integer division: the masked form divides lane by
  // lane.
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op))
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

namespace {
/// The ops of one iteration: `ops` the masked lowering runs on SIMD-width
/// lanes at once, `laneOps` those it runs lane by lane.
struct OpCounts {
  double ops = 0, laneOps = 0;
};
} // namespace

/// Counts the ops of `region`, and those of each function it calls where it
/// calls it, under that callee's own analysis. loom-vmap rejects recursion,
/// so the descent ends; `depth` bounds it regardless.
static void countOps(Region &region, const BatchednessAnalysis &analysis,
                     OpCounts &counts, unsigned depth = 0) {
  region.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    (runsLaneByLane(op, analysis) ? counts.laneOps : counts.ops) += 1;
    auto call = dyn_cast<func::CallOp>(op);
    if (!call || depth > 32)
      return;
    const BatchednessAnalysis *callee = analysis.getCalleeAnalysis(call);
    auto func = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (callee && func && !func.isExternal())
      countOps(func.getBody(), *callee, counts, depth + 1);
  });
}

/// True when the masked form of `loop` and of every divergent loop in it is
/// one pass over the lanes per iteration (the fused or nest form), with no
/// branch or call between them: those the nest form batches as they are, a
/// sweep over the lanes each (both sides of a branch, then a select).
static bool isMaskedInOnePass(Operation *loop,
                              const BatchednessAnalysis &analysis) {
  auto onePass = [](Operation *op) {
    auto loop = dyn_cast<scf::WhileOp>(op);
    if (!loop)
      return false;
    if (isElementwiseLoop(loop))
      return true;
    if (!isElementwiseNest(loop))
      return false;
    return !loop->walk([&](Operation *inner) {
                  bool branchOrCall = isa<CallOpInterface>(inner) ||
                                      (inner->getNumRegions() != 0 &&
                                       !isa<scf::WhileOp, scf::ForOp>(inner));
                  return branchOrCall ? WalkResult::interrupt()
                                      : WalkResult::advance();
                })
                .wasInterrupted();
  };
  if (!onePass(loop))
    return false;
  WalkResult result = loop->walk([&](Operation *op) {
    if (op != loop && isa<scf::WhileOp, scf::ForOp>(op) &&
        analysis.isControlBatched(op) && !onePass(op))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !result.wasInterrupted();
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
    return {LoopStrategy::PerLane, /*refill=*/false,
            "target=gpu: one thread per lane, so no lane waits for another "
            "and no grid-wide any"};

  unsigned width = std::max(1u, params.simdWidth);
  OpCounts counts;
  for (Region &region : loop->getRegions())
    countOps(region, analysis, counts);
  unsigned carries = loop->getNumResults();
  unsigned depth = getDivergentDepth(loop, analysis);
  double batch = std::max<int64_t>(1, params.batch);
  double divergence = std::max(1.0, params.expectedDivergence);
  bool onePass = isMaskedInOnePass(loop, analysis);
  double opCost =
      std::max(0.0, onePass ? params.onePassOpCost : params.maskedOpCost);
  double laneCost = std::max(0.0, params.laneOpCost);

  double lanes = laneCost * counts.laneOps;
  double masked =
      std::pow(divergence, depth) *
      (opCost * (counts.ops + carries + 3) * std::ceil(batch / width) +
       lanes * batch);
  double perLane = batch * (counts.ops + lanes);
  bool chooseMasked = masked <= perLane;
  LoopCostDecision decision{chooseMasked ? LoopStrategy::Masked
                                         : LoopStrategy::PerLane};
  double best = std::min(masked, perLane);
  // A batch that fits one gang is one masked loop: nothing to choose.
  unsigned gangWidth = std::max(1u, params.gangWidth);
  bool gangs = params.mayGang && (params.batchAssumed || batch > gangWidth);
  double gang = 0, refill = 0;
  if (gangs) {
    double ops = counts.ops + carries + 3;
    double gangDivergence = std::max(1.0, params.gangDivergence);
    gang = std::pow(gangDivergence, depth) *
               (opCost * ops * std::ceil(batch / width) + lanes * batch) +
           std::max(0.0, params.gangOverhead) * std::ceil(batch / gangWidth);
    refill = std::pow(gangDivergence, depth - 1) *
             (opCost * (ops + std::max(0.0, params.refillOpCost)) *
                  std::ceil(batch / width) +
              lanes * batch);
    if (gang < best) {
      best = gang;
      decision = {LoopStrategy::Gang, false};
    }
    if (refill < best)
      decision = {LoopStrategy::Gang, true};
  }
  // The counts let benchmarks/fit-cost-model.py refit the constants from
  // remarks alone.
  std::string why = llvm::formatv(
      "cost model: masked {0:F0} {1} per-lane {2:F0} ({3} divergent "
      "level{4}, {5} lanes{6}, SIMD width {7}); {8:F0} ops, {9:F0} lane by "
      "lane, {10} carries, masked {11}",
      masked, chooseMasked ? "<=" : ">", perLane, depth, depth == 1 ? "" : "s",
      params.batch, params.batchAssumed ? " assumed" : "", width, counts.ops,
      counts.laneOps, carries, onePass ? "in one pass" : "in sweeps");
  if (gangs)
    why += llvm::formatv("; gang {0:F0}, gang with refill {1:F0} (width "
                         "{2}): {3}",
                         gang, refill, gangWidth,
                         decision.strategy == LoopStrategy::Gang
                             ? (decision.refill ? "gang with refill is cheapest"
                                                : "gang is cheapest")
                             : "neither is cheaper")
               .str();
  decision.why = why;
  return decision;
}
