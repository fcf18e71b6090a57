//===- Vmap.h - loom-vmap's driver and function batcher ---------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The pieces of `loom-vmap` that its files share: the module-wide state of
// one run (VmapExpander, in Vmap.cpp with the pass), the BatchingContext
// that builds one batched function (FunctionBatcher,
// VmapFunctionBatcher.cpp) and its loop-strategy policy and remarks
// (VmapLoopStrategy.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_DIALECT_LOOM_TRANSFORMS_VMAP_H
#define LOOM_LIB_DIALECT_LOOM_TRANSFORMS_VMAP_H

#include "LoopCostModel.h"
#include "loom/Analysis/Batchedness.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"
#include "loom/Interfaces/BatchingOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

#include <map>
#include <tuple>
#include <vector>

namespace mlir::loom::vmap {

//===----------------------------------------------------------------------===//
// VmapExpander: the module-wide state of one run
//===----------------------------------------------------------------------===//

struct VmapSettings {
  DivergentPolicy divergent;
  /// Lanes of one gang, and whether its slots refill (divergent=gang).
  int64_t gangWidth;
  bool refill;
  LoopCostParams cost;
  int64_t assumedBatch;
};

struct BatchedFunc {
  func::FuncOp func;
  SmallVector<bool> resultBatched;
};

class VmapExpander {
public:
  VmapExpander(ModuleOp module, VmapSettings settings)
      : module(module), symbolTable(module), solver(module),
        settings(settings) {}

  /// Replaces `vmap` by a call of the batched callee.
  LogicalResult expand(VmapOp vmap);

  /// The clone of `callee` batched for `signature` and `batch` lanes;
  /// `site` is where analysis errors (recursion) are reported. A `masked`
  /// clone takes the caller's lane mask as a trailing tensor<Bxi1> and runs
  /// its body under it. A clone `inGang` runs inside a gang: every
  /// divergent loop in it (and in what it calls) is masked.
  FailureOr<BatchedFunc> getBatched(func::FuncOp callee,
                                    ArrayRef<bool> signature, int64_t batch,
                                    Operation *site, bool masked = false,
                                    bool inGang = false);

  /// Inserts `scalar`, what a gang runs outlined as a function, and
  /// batches it at the gang's width, masked and in a gang; `isGangLoop`:
  /// its top-level loop is the gang's own loop.
  FailureOr<BatchedFunc> batchGangBody(func::FuncOp scalar,
                                       ArrayRef<bool> signature,
                                       Operation *site, bool isGangLoop);
  /// True for an outlined gang loop (batchGangBody with `isGangLoop`).
  bool isGangLoop(func::FuncOp func) const {
    return gangLoops.contains(func.getOperation());
  }
  /// Erases the outlined functions: nothing calls them once batched.
  void eraseGangBodies();

  BatchednessSolver &getSolver() { return solver; }
  /// True for a function this pass made (a batched clone).
  bool isBatchedClone(func::FuncOp func) const {
    return clones.contains(func.getOperation());
  }
  /// True for a function this pass batched (a clone's source).
  bool isBatchedSource(func::FuncOp func) const {
    return sources.contains(func.getOperation());
  }
  const VmapSettings &getSettings() const { return settings; }

private:
  ModuleOp module;
  SymbolTable symbolTable;
  BatchednessSolver solver;
  VmapSettings settings;
  std::map<std::tuple<Operation *, std::vector<bool>, int64_t, bool, bool>,
           BatchedFunc>
      cache;
  SmallVector<Operation *> gangBodies;
  DenseSet<Operation *> gangLoops;
  DenseSet<Operation *> clones;
  DenseSet<Operation *> sources;
};

//===----------------------------------------------------------------------===//
// FunctionBatcher: builds one batched function
//===----------------------------------------------------------------------===//

class FunctionBatcher : public BatchingContext {
public:
  FunctionBatcher(VmapExpander &expander, const BatchednessAnalysis &analysis,
                  int64_t batch, bool inGang, bool gangBody)
      : expander(expander), analysis(analysis), batch(batch), inGang(inGang),
        gangBody(gangBody) {}

  /// Fills the empty `target` with the batched body of `source`; with
  /// `masked`, under the mask `target` takes as its last argument.
  LogicalResult run(func::FuncOp source, func::FuncOp target, bool masked);

  bool isBatched(Value original) const override {
    return analysis.isBatched(original);
  }
  bool isControlBatched(Operation *original) const override {
    return analysis.isControlBatched(original);
  }
  Value lookup(Value original) const override {
    return mapping.lookupOrDefault(original);
  }
  void map(Value original, Value replacement) override {
    mapping.map(original, replacement);
  }
  Value getBatchSize() const override { return batchSize; }
  int64_t getStaticBatchSize() const override { return batch; }
  Value broadcast(OpBuilder &builder, Location loc, Value unbatched) override;
  Value getAllTrue(OpBuilder &builder, Location loc) override;

  LogicalResult batchBlock(Block &original, OpBuilder &builder) override;
  LogicalResult batchOp(Operation &original, OpBuilder &builder) override;
  FailureOr<func::FuncOp>
  getBatchedCallee(func::CallOp call,
                   SmallVectorImpl<bool> &resultBatched) override;
  FailureOr<LoopStrategy> getLoopStrategy(Operation *loop) override;
  void notifyClonedPerLane(Operation *original, Operation *clone) override;
  int64_t getGangWidth() const override {
    return expander.getSettings().gangWidth;
  }
  bool getGangRefill(Operation *loop) const override {
    return refillLoops.contains(loop);
  }
  bool hasAlternative(Operation *loop) const override {
    return variants.contains(loop);
  }
  LoopStrategy useVariant(Operation *loop, bool alternative) override;
  std::string describeVariant(Operation *loop, bool alternative) const override;
  FailureOr<func::FuncOp>
  batchGangBody(func::FuncOp scalar, ArrayRef<bool> signature, Operation *site,
                bool isGangLoop, SmallVectorImpl<bool> &resultBatched) override;

private:
  /// One of the two forms getLoopStrategy chose to compile `loop` in.
  LoopVariant getVariant(Operation *loop, bool alternative) const;
  std::string explainControl(Operation *loop) const;
  void remarkNestedLoops(Operation *op, bool includeSelf, StringRef message);
  std::optional<LoopStrategy> getStrategyInGang(Operation *loop,
                                                LoopStrategyAttr pin,
                                                const std::string &reason);
  bool isGangRoot(Operation *loop) const;
  bool isNestedInDivergentLoop(Operation *loop) const;

  VmapExpander &expander;
  const BatchednessAnalysis &analysis;
  int64_t batch;
  /// This function runs inside a gang: its divergent loops are masked.
  bool inGang;
  /// This function is a gang's outlined loop.
  bool gangBody;
  /// Loops of this function decided gang (the outermost of their nests).
  DenseSet<Operation *> gangLoops;
  /// The gang loops whose slots refill.
  DenseSet<Operation *> refillLoops;
  /// Loops compiled two ways: the primary and the alternative.
  DenseMap<Operation *, std::pair<LoopVariant, LoopVariant>> variants;
  Value batchSize;
  IRMapping mapping;
  /// The broadcast of each unbatched value, and the all-true mask.
  DenseMap<Value, Value> broadcasts;
  Value allTrue;
};

/// Records `strategy` as what loom-vmap decided for every while loop in `op`
/// (itself included): a copy of a scalar loop keeps its pin, which must not
/// pass for a decision (loom-localize-loops trusts only a decided `masked`).
void recordDecided(Operation *op, LoopStrategy strategy);

} // namespace mlir::loom::vmap

#endif // LOOM_LIB_DIALECT_LOOM_TRANSFORMS_VMAP_H
