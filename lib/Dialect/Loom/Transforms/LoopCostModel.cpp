//===- LoopCostModel.cpp - Which lowering for a divergent loop ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Every lowering does the same scalar work per lane and trip; they differ in
// how many lanes one instruction serves, what one op costs in their form, how
// many trips they run, and whether a trip waits for the one before it:
//
//   per-lane = B * max(ops + l * (lane + tables), k * chain)
//   masked   = D(B)^L * (c_m * V + U)
//   gang     = D(Wg)^L * (c_g * V + U) + o * ceil(B / Wg)
//   refill   = D(Wg)^(L-1) * (c_g * (V + r * carries * ceil(B / W)) + U)
//   V        = (ops + carries + 3) * ceil(B / W),  D(n) = 1 + d * log2(n)
//   U        = (u * lane + t * tables) * B in one pass,
//              u * (lane + tables) * B in sweeps
//
// B lanes (the static batch, else assumed-batch: 64 when, as usual, the
// batch is dynamic at compile time), W the SIMD width, Wg the gang width, L
// the depth of divergent loops nested in this one (itself included), V the
// vector ops of one trip (the loop's ops, a select per carry, the mask
// update and the `any`).
//
// A lock-step loop runs until its slowest lane is done, and nested levels
// compound: D(n) is the slowest of n lanes' trip count over the mean,
// growing with log2(n) as the maximum of n draws does. Masked runs the
// shard's B lanes in lock-step, a gang Wg, refill's outermost level none (a
// slot whose lane is done takes the next). c_m and c_g are what one op on W
// lanes costs, in scalar ops, by form: in one pass over the lanes per trip
// (SCFWhileMasked.cpp: every level elementwise, no branch or call; the
// lanes' state stays in registers) or in sweeps (a sweep over lane buffers
// per op), and for masked or a gang, whose W-lane buffers are promoted to
// the stack where a masked loop's B-lane ones stream through memory.
//
// `ops` counts the ops the batched forms run on W lanes at once, `lane` those
// they can only run lane by lane (random numbers on a per-lane key, reads
// and writes at a per-lane index, transcendental math, which becomes a C
// library call per lane, integer division): per-lane pays l for each, the
// batched forms u per lane of the lock-step, idle lanes included, so their
// waste grows with divergence. `tables` counts the reads at a per-lane index
// of a table every lane shares, which a pass over the lanes runs as a load
// on each (t), where in sweeps they are lane ops; per-lane pays l for each.
// Ops of a called function count where they are
// called. A per-lane trip also waits for the one before it: `chain` is the
// latency, in cycles, of the loop-carried dependency chain (CarriedChain
// below, from a fixed table of x86 latencies), which the batched forms
// overlap across independent lanes; k turns it into scalar ops. Each gang
// pays o to gather and scatter its lanes, refill r gang ops a trip and carry
// to retire and take lanes.
//
// The constants are pass options (Passes.td holds the defaults), fitted by
// benchmarks/fit-cost-model.py on the fit half of the divergent suite; on
// 2026-12-01 the rms error of log(strategy / per-lane) was 0.42 (a factor
// 1.5) on that half and 0.64 on the held-out one (docs/vmap.md).
//
//===----------------------------------------------------------------------===//

#include "LoopCostModel.h"
#include "BatchingModels/SCFWhileMasked.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>

using namespace mlir;
using namespace mlir::loom;

/// True for a random-number op, a transcendental function (which
/// convert-math-to-libm makes a C library call, vectorized or not; sqrt, abs,
/// fma and rounding have vector instructions) or an integer division whose
/// divisor gets a trap guard (x86 has no vector division; by a constant that
/// cannot trap, which has no guard, LLVM divides a vector with multiplies and
/// shifts): ops a batched form runs lane by lane on batched operands.
static bool isScalarOnly(Operation *op) {
  return isa<RandomKeyOp, RandomSplitOp, RandomFoldInOp, RandomBitsOp,
             RandomUniformOp, RandomNormalOp, RandomRandIntOp, math::SinOp,
             math::CosOp, math::TanOp, math::AsinOp, math::AcosOp, math::AtanOp,
             math::Atan2Op, math::SinhOp, math::CoshOp, math::TanhOp,
             math::AsinhOp, math::AcoshOp, math::AtanhOp, math::ExpOp,
             math::Exp2Op, math::ExpM1Op, math::LogOp, math::Log2Op,
             math::Log10Op, math::Log1pOp, math::PowFOp, math::ErfOp,
             math::CbrtOp>(op) ||
         getTrapGuard(op);
}

/// True for an op whose masked batching rule is a loop over lanes.
static bool runsLaneByLane(Operation *op, const BatchednessAnalysis &analysis) {
  auto anyBatched = [&](ValueRange values) {
    return llvm::any_of(values, [&](Value v) { return analysis.isBatched(v); });
  };
  if (isScalarOnly(op))
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
/// lanes at once, `laneOps` those it runs lane by lane, `libm` the f32
/// sines and log1ps on batched operands when the batched forms compute them
/// in vector arithmetic (loom-libm-to-arith; else they are lane ops), and
/// `tableReads` the reads at a lane's index of a table every lane shares,
/// which are lane ops in sweeps but loads in a pass over the lanes.
struct OpCounts {
  double ops = 0, laneOps = 0, libm = 0, tableReads = 0;
};
} // namespace

/// Counts the ops of `region`, and those of each function it calls where it
/// calls it, under that callee's own analysis. loom-vmap rejects recursion,
/// so the descent ends; `depth` bounds it regardless.
static void countOps(Region &region, const BatchednessAnalysis &analysis,
                     bool vectorLibm, OpCounts &counts, unsigned depth = 0) {
  region.walk([&](Operation *op) {
    if (op->hasTrait<OpTrait::IsTerminator>())
      return;
    bool laneByLane = runsLaneByLane(op, analysis);
    bool inArithmetic = isa<math::SinOp, math::Log1pOp>(op) &&
                        op->getResult(0).getType().isF32();
    if (laneByLane && vectorLibm && inArithmetic)
      counts.libm += 1;
    else if (laneByLane && isa<tensor::ExtractOp>(op) &&
             isLaneOp(*op, [&](Value v) { return analysis.isBatched(v); }))
      counts.tableReads += 1;
    else
      (laneByLane ? counts.laneOps : counts.ops) += 1;
    auto call = dyn_cast<func::CallOp>(op);
    if (!call || depth > 32)
      return;
    const BatchednessAnalysis *callee = analysis.getCalleeAnalysis(call);
    auto func = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (callee && func && !func.isExternal())
      countOps(func.getBody(), *callee, vectorLibm, counts, depth + 1);
  });
}

/// True when the masked form of `loop` and of every divergent loop in it is
/// one pass over the lanes per iteration (the fused or nest form), with no
/// branch or call between them: those the nest form batches as they are, a
/// sweep over the lanes each (both sides of a branch, then a select).
static bool isMaskedInOnePass(Operation *loop,
                              const BatchednessAnalysis &analysis) {
  auto isBatched = [&](Value v) { return analysis.isBatched(v); };
  auto onePass = [&](Operation *op) {
    auto loop = dyn_cast<scf::WhileOp>(op);
    if (!loop)
      return false;
    if (isElementwiseLoop(loop, isBatched))
      return true;
    if (!isElementwiseNest(loop, isBatched))
      return false;
    return !loop->walk([&](Operation *inner) {
                  bool branchOrCall = isa<CallOpInterface>(inner) ||
                                      (inner->getNumRegions() != 0 &&
                                       !isa<scf::WhileOp, scf::ForOp>(inner) &&
                                       !isLaneOp(*inner, isBatched));
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

/// An op's latency in cycles on a current x86-64 core (Agner Fog's tables,
/// rounded): what a per-lane trip waits for when the op is on the chain from
/// one trip's carries to the next's. Not fitted: carried-latency-cost turns
/// cycles into scalar ops.
static double getLatency(Operation *op) {
  if (op->hasTrait<OpTrait::ConstantLike>())
    return 0;
  // An integer division by a constant is a multiply and shifts.
  if (isa<arith::DivSIOp, arith::DivUIOp, arith::RemSIOp, arith::RemUIOp,
          arith::CeilDivSIOp, arith::CeilDivUIOp, arith::FloorDivSIOp>(op) &&
      matchPattern(op->getOperand(1), m_Constant()))
    return 4;
  // A C library call, an integer division, a random number.
  if (isScalarOnly(op))
    return 20;
  if (isa<tensor::ExtractOp, tensor::InsertOp>(op))
    return 5;
  if (isa<arith::DivFOp, math::SqrtOp, math::RsqrtOp>(op))
    return 14;
  if (isa<arith::AddFOp, arith::SubFOp, arith::MulFOp, math::FmaOp,
          arith::MaximumFOp, arith::MinimumFOp, arith::MaxNumFOp,
          arith::MinNumFOp, arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp,
          arith::FPToUIOp, arith::CmpFOp>(op))
    return 4;
  if (isa<arith::MulIOp>(op))
    return 3;
  return 1;
}

namespace {
/// The latency of a trip's loop-carried dependency chain: how far the
/// carries' ready times move per trip in the steady state (the cycle of ops
/// from carries to the next trip's carries with the longest mean, as a
/// per-lane loop runs one trip after another, where the batched forms
/// overlap independent lanes). Worked out by running the trips' latencies:
/// the movement from trip K to trip 2K, over K, which leaves out the one-off
/// start of paths that do not come round again.
class CarriedChain {
public:
  double ofLoop(Operation *loop, unsigned depth = 0) {
    auto [it, fresh] = loops.try_emplace(loop, 0.0);
    if (!fresh || depth > 8)
      return it->second;
    constexpr unsigned kTrips = 16;
    llvm::DenseMap<Value, double> ready;
    SmallVector<double> carries(loop->getNumResults(), 0.0);
    double atK = 0, at2K = 0;
    for (unsigned trip = 1; trip <= 2 * kTrips; ++trip) {
      Operation *yield = nullptr;
      if (auto whileOp = dyn_cast<scf::WhileOp>(loop)) {
        for (auto [arg, t] : llvm::zip(whileOp.getBeforeArguments(), carries))
          ready[arg] = t;
        walk(whileOp.getBeforeBody(), ready, depth);
        for (auto [arg, forwarded] :
             llvm::zip(whileOp.getAfterArguments(),
                       whileOp.getConditionOp().getArgs()))
          ready[arg] = ready.lookup(forwarded);
        yield = walk(whileOp.getAfterBody(), ready, depth);
      } else if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
        for (auto [arg, t] : llvm::zip(forOp.getRegionIterArgs(), carries))
          ready[arg] = t;
        yield = walk(forOp.getBody(), ready, depth);
      } else {
        return 0;
      }
      for (auto [t, v] : llvm::zip(carries, yield->getOperands()))
        t = ready.lookup(v);
      double latest = carries.empty() ? 0 : *llvm::max_element(carries);
      (trip == kTrips ? atK : at2K) = latest;
    }
    return loops[loop] = (at2K - atK) / kTrips;
  }

private:
  /// Walks `block`'s ops in order; returns its terminator.
  Operation *walk(Block *block, llvm::DenseMap<Value, double> &ready,
                  unsigned depth) {
    for (Operation &op : block->without_terminator()) {
      double start = 0;
      for (Value v : op.getOperands())
        start = std::max(start, ready.lookup(v));
      double done = start + getLatency(&op);
      if (isa<scf::WhileOp, scf::ForOp>(op)) {
        done = start + ofLoop(&op, depth + 1);
      } else if (auto call = dyn_cast<func::CallOp>(op)) {
        done = start + ofCall(call, depth);
      } else if (op.getNumRegions()) {
        // A branch: the slower side, its block arguments ready with the op.
        for (Region &region : op.getRegions())
          for (Block &inner : region) {
            for (Value arg : inner.getArguments())
              ready[arg] = start;
            done = std::max(done, yielded(walk(&inner, ready, depth), ready));
          }
      }
      for (Value result : op.getResults())
        ready[result] = done;
    }
    return block->getTerminator();
  }

  static double yielded(Operation *terminator,
                        const llvm::DenseMap<Value, double> &ready) {
    double chain = 0;
    for (Value v : terminator->getOperands())
      chain = std::max(chain, ready.lookup(v));
    return chain;
  }

  /// A callee's longest path from its arguments to what it returns.
  double ofCall(func::CallOp call, unsigned depth) {
    auto func = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    if (!func || func.isExternal() || depth > 32)
      return 1;
    auto [it, fresh] = callees.try_emplace(func.getOperation(), 0.0);
    if (!fresh)
      return it->second;
    llvm::DenseMap<Value, double> ready;
    double chain =
        yielded(walk(&func.getBody().front(), ready, depth + 1), ready);
    return callees[func.getOperation()] = chain;
  }

  llvm::DenseMap<Operation *, double> callees, loops;
};
} // namespace

std::string mlir::loom::describeVariant(LoopVariant variant) {
  // As remarks and --divergent spell them (the attribute says per_lane).
  switch (variant.strategy) {
  case LoopStrategy::Gang:
    return variant.refill ? "gang with refill" : "gang";
  case LoopStrategy::PerLane:
    return "per-lane";
  default:
    return stringifyLoopStrategy(variant.strategy).str();
  }
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
  double libmOps = std::max(0.0, params.vectorLibmOps);
  for (Region &region : loop->getRegions())
    countOps(region, analysis, libmOps > 0, counts);
  unsigned carries = loop->getNumResults();
  unsigned depth = getDivergentDepth(loop, analysis);
  double batch = std::max<int64_t>(1, params.batch);
  bool onePass = isMaskedInOnePass(loop, analysis);
  auto cost = [](double c) { return std::max(0.0, c); };
  auto divergence = [&](double lanes) {
    return 1.0 + cost(params.divergencePerDoubling) * std::log2(lanes);
  };
  double vectorOps = (counts.ops + libmOps * counts.libm + carries + 3) *
                     std::ceil(batch / width);
  // In one pass, a table read is a load on every lane of the pass (LLVM
  // gathers lane by lane where vector gathers are slow); in sweeps, a lane
  // loop of its own like any lane op.
  double batchedLanes =
      (cost(params.batchedLaneOpCost) *
           (counts.laneOps + (onePass ? 0 : counts.tableReads)) +
       (onePass ? cost(params.tableReadCost) * counts.tableReads : 0)) *
      batch;

  double maskedDivergence = divergence(batch);
  double masked =
      std::pow(maskedDivergence, depth) *
      (cost(onePass ? params.onePassOpCost : params.maskedOpCost) * vectorOps +
       batchedLanes);
  // A per-lane trip takes its ops' issue time or its carried chain's
  // latency, whichever is longer.
  double chain = CarriedChain().ofLoop(loop);
  double perLane =
      batch * std::max(counts.ops + cost(params.laneOpCost) *
                                        (counts.laneOps + counts.libm +
                                         counts.tableReads),
                       cost(params.carriedLatencyCost) * chain);
  bool chooseMasked = masked <= perLane;
  LoopCostDecision decision{chooseMasked ? LoopStrategy::Masked
                                         : LoopStrategy::PerLane};
  double best = std::min(masked, perLane);
  // A batch that fits one gang is one masked loop: nothing to choose.
  unsigned gangWidth = std::max(1u, params.gangWidth);
  bool gangs = params.mayGang && (params.batchAssumed || batch > gangWidth);
  double gang = 0, refill = 0, gangDivergence = divergence(gangWidth);
  if (gangs) {
    double gangOpCost =
        cost(onePass ? params.gangOnePassOpCost : params.gangOpCost);
    gang = std::pow(gangDivergence, depth) *
               (gangOpCost * vectorOps + batchedLanes) +
           cost(params.gangOverhead) * std::ceil(batch / gangWidth);
    double refillOps =
        cost(params.refillOpCost) * carries * std::ceil(batch / width);
    refill = std::pow(gangDivergence, depth - 1) *
             (gangOpCost * (vectorOps + refillOps) + batchedLanes);
    double lockStep = best;
    if (gang < best) {
      best = lockStep = gang;
      decision = {LoopStrategy::Gang, false};
    }
    LoopVariant lockStepVariant{decision.strategy, decision.refill};
    if (refill < best) {
      best = refill;
      decision = {LoopStrategy::Gang, true};
    }
    // How much refill gains over lock-step is how unevenly the lanes' trip
    // counts spread, which the IR does not show: where the model's two
    // sides are close, the runtime times both.
    double other = decision.refill ? lockStep : refill;
    if (params.adaptive && other <= cost(params.adaptiveFactor) * best)
      decision.alternative = decision.refill
                                 ? lockStepVariant
                                 : LoopVariant{LoopStrategy::Gang, true};
  }
  // The counts let benchmarks/fit-cost-model.py refit the constants from
  // remarks alone.
  std::string why = llvm::formatv(
      "cost model: masked {0:F0} {1} per-lane {2:F0} ({3} divergent "
      "level{4}, {5} lanes{6}, SIMD width {7}, divergence {8:F3} a level); "
      "{9:F0} ops, {10:F0} lane by lane{11}{15}, {12} carries, a "
      "{13:F0}-cycle carried chain, masked {14}",
      masked, chooseMasked ? "<=" : ">", perLane, depth, depth == 1 ? "" : "s",
      params.batch, params.batchAssumed ? " assumed" : "", width,
      maskedDivergence, counts.ops, counts.laneOps,
      counts.libm ? llvm::formatv(", {0:F0} libm calls in vector arithmetic",
                                  counts.libm)
                        .str()
                  : std::string(),
      carries, chain, onePass ? "in one pass" : "in sweeps",
      counts.tableReads
          ? llvm::formatv(", {0:F0} table read{1} at a lane's index",
                          counts.tableReads, counts.tableReads == 1 ? "" : "s")
                .str()
          : std::string());
  if (gangs)
    why += llvm::formatv("; gang {0:F0}, gang with refill {1:F0} (width "
                         "{2}, divergence {3:F3} a level): {4}",
                         gang, refill, gangWidth, gangDivergence,
                         decision.strategy == LoopStrategy::Gang
                             ? (decision.refill ? "gang with refill is cheapest"
                                                : "gang is cheapest")
                             : "neither is cheaper")
               .str();
  // Lock-step gangs as refill's alternative are refill's own loop with its
  // slots' refill switched off at run time (SCFWhile.cpp).
  if (decision.alternative &&
      decision.alternative->strategy == LoopStrategy::Gang && decision.refill)
    why += llvm::formatv("; within {0}x of each other, so the loop can also "
                         "run lock-step (refill switched off at run time), "
                         "and each shard times both on its first calls",
                         params.adaptiveFactor)
               .str();
  else if (decision.alternative)
    why += llvm::formatv("; within {0}x of each other, so {1} is compiled "
                         "too, and each shard times both on its first calls",
                         params.adaptiveFactor,
                         describeVariant(*decision.alternative))
               .str();
  decision.why = why;
  return decision;
}
