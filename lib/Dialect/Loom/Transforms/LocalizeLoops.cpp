//===- LocalizeLoops.cpp - Shard-local loop predicates --------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"
#include "loom/Dialect/Loom/Utils/LocationUtils.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMLOCALIZELOOPS
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

/// The collective that decides a loop: `scf.condition(extract(all_reduce(
/// from_elements(p))))`, as loom-shard builds it for a predicate.
std::optional<ScalarAllReduce> matchPredicate(scf::WhileOp loop) {
  return matchScalarAllReduce(loop.getConditionOp().getCondition());
}

/// The first collective inside `loop` other than `except`, if any.
Operation *otherCollective(scf::WhileOp loop, Operation *except) {
  Operation *found = nullptr;
  loop->walk([&](Operation *op) {
    if (op != except && isShardCollective(op)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// True when `loop` is in one of the variants a loom.variant_begin chooses.
bool inTimedVariant(Operation *loop) {
  for (Operation *parent = loop->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto branch = dyn_cast<scf::IfOp>(parent))
      if (branch.getCondition().getDefiningOp<VariantBeginOp>())
        return true;
  return false;
}

std::string describe(Operation *collective) {
  // Name what the collective reduces: the loom op it serves.
  Operation *user = collective;
  for (Operation *u : collective->getResult(0).getUsers())
    if (isa_and_nonnull<LoomDialect>(u->getDialect()))
      user = u;
  if (auto input = collective->getOperand(0).getDefiningOp();
      input && isa_and_nonnull<tensor::TensorDialect>(input->getDialect()))
    if (auto src = input->getOperand(0).getDefiningOp())
      user = src;
  return (user->getName().getStringRef() + " at " +
          locationString(user->getLoc()))
      .str();
}

struct LoomLocalizeLoops
    : mlir::loom::impl::LoomLocalizeLoopsBase<LoomLocalizeLoops> {
  using LoomLocalizeLoopsBase::LoomLocalizeLoopsBase;

  void runOnOperation() override {
    // What was requested; nullopt (auto) leaves each loop to be decided.
    std::optional<LoopSync> mode;
    if (loopSync == LoopSyncPolicy::Global)
      mode = LoopSync::Global;
    else if (loopSync == LoopSyncPolicy::Local)
      mode = LoopSync::Local;

    // Post-order: inner loops decide first, so an outer loop sees what its
    // inner loops kept.
    bool failedAny = false;
    getOperation().walk([&](scf::WhileOp loop) {
      if (failed(visit(loop, mode)))
        failedAny = true;
    });
    if (failedAny)
      signalPassFailure();
  }

  LogicalResult visit(scf::WhileOp loop, std::optional<LoopSync> mode) {
    std::optional<ScalarAllReduce> pred = matchPredicate(loop);
    if (!pred)
      return success();
    bool pinned = false;
    if (auto attr =
            loop->getAttrOfType<LoopSyncAttr>(LoomDialect::kLoopSyncAttrName)) {
      mode = attr.getValue();
      pinned = true;
    }
    const char *how = pinned ? " (pinned by loom.loop_sync)"
                      : mode ? " (requested)"
                             : "";
    Operation *coupling = otherCollective(loop, pred->reduce);
    // Every shard must enter a global loop's collective, and a shard picks
    // its variant alone: the others may be running the other one.
    bool keepsCollective =
        mode == LoopSync::Global || coupling || !isMaskedByVmap(loop);
    if (keepsCollective && inTimedVariant(loop))
      return loop.emitError()
             << "loop-sync global cannot apply to a loop inside a variant "
             << "of loom.variant_begin: each shard picks its variant alone, "
             << "so the shards might not all run this loop (compile with "
             << "loom-vmap adaptive=0)";

    if (mode == LoopSync::Global) {
      loop.emitRemark() << "loop-sync global" << how
                        << ": the predicate is all-reduced across shards on "
                        << "every iteration, and every shard runs until the "
                        << "slowest lane anywhere is done";
      return success();
    }
    if (coupling) {
      if (mode == LoopSync::Local) {
        InFlightDiagnostic diag =
            loop.emitError()
            << "loop-sync=local would change results: the loop also "
            << "reduces across shards (" << describe(coupling)
            << "), so every shard must run every iteration";
        return diag;
      }
      loop.emitRemark() << "loop-sync global: the loop also reduces across "
                        << "shards (" << describe(coupling)
                        << "), so every shard must run every iteration";
      return success();
    }
    if (!isMaskedByVmap(loop)) {
      static constexpr const char *kWhy =
          "not a masked loop from loom-vmap: finished lanes may still "
          "change, so every shard runs every iteration";
      if (mode == LoopSync::Local) {
        InFlightDiagnostic diag = loop.emitError()
                                  << "loop-sync=local would change results: "
                                  << "this loop is " << kWhy;
        return diag;
      }
      loop.emitRemark() << "loop-sync global: " << kWhy;
      return success();
    }

    // scf.condition(all_reduce(p)) => scf.condition(p): in a masked loop
    // finished lanes keep their values, so stopping when this shard's lanes
    // are done changes nothing but the time.
    loop.getConditionOp().getConditionMutable().assign(pred->local);
    for (Operation *op :
         {pred->extract.getOperation(), pred->reduce.getOperation(),
          pred->wrap.getOperation()})
      if (op->use_empty())
        op->erase();
    loop.emitRemark() << "loop-sync local" << how
                      << ": each shard reduces its own lanes' predicate and "
                      << "stops when they are done; nothing else in the "
                      << "loop crosses shards";
    return success();
  }
};

} // namespace
