//===- Vmap.cpp - Expand loom.vmap into batched functions -----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// `loom-vmap` replaces each `loom.vmap @f(...)` by a call of a clone of @f
// batched for the vmap's signature. The clone is built op by op from the
// scalar function by each op's batching rule (BatchingOpInterface), driven by
// the batchedness analysis. This file is the pass and its driver: the order
// in which vmaps are expanded, and the cache of batched clones (one per
// callee, batchedness signature and batch size). The BatchingContext the
// rules see is in VmapFunctionBatcher.cpp, the loop strategies and their
// remarks in VmapLoopStrategy.cpp.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Transforms/Passes.h"

#include "Vmap.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMVMAPPASS
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;
using namespace mlir::loom::vmap;

namespace {

//===----------------------------------------------------------------------===//
// Loops with per-lane bounds become while loops
//===----------------------------------------------------------------------===//

// for i in [l, u) step s (x) => while (i < u) (i, x) { body; i + s }
// (scf.for compares signed in MLIR 19.) Every strategy handles while loops,
// and a per-lane trip count is what makes a loop divergent.
void convertForToWhile(scf::ForOp loop) {
  OpBuilder builder(loop);
  Location loc = loop.getLoc();
  SmallVector<Value> inits{loop.getLowerBound()};
  llvm::append_range(inits, loop.getInitArgs());
  SmallVector<Type> types = llvm::to_vector(TypeRange(inits));
  auto whileOp = builder.create<scf::WhileOp>(
      loc, types, inits,
      [&](OpBuilder &b, Location l, ValueRange args) {
        Value more = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::slt,
                                             args[0], loop.getUpperBound());
        b.create<scf::ConditionOp>(l, more, args);
      },
      [&](OpBuilder &b, Location l, ValueRange args) {
        IRMapping mapping;
        mapping.map(loop.getInductionVar(), args[0]);
        for (auto [arg, newArg] :
             llvm::zip(loop.getRegionIterArgs(), args.drop_front()))
          mapping.map(arg, newArg);
        for (Operation &op : loop.getBody()->without_terminator())
          b.clone(op, mapping);
        Value next = b.create<arith::AddIOp>(l, args[0], loop.getStep());
        SmallVector<Value> yielded{next};
        for (Value value : loop.getBody()->getTerminator()->getOperands())
          yielded.push_back(mapping.lookupOrDefault(value));
        b.create<scf::YieldOp>(l, yielded);
      });
  whileOp->setDiscardableAttrs(loop->getDiscardableAttrDictionary());
  loop.replaceAllUsesWith(whileOp.getResults().drop_front());
  loop.erase();
}

//===----------------------------------------------------------------------===//
// VmapExpander
//===----------------------------------------------------------------------===//

std::string signatureSuffix(ArrayRef<bool> signature, int64_t batch) {
  std::string suffix = "_vmap_";
  for (bool isBatched : signature)
    suffix += isBatched ? 'b' : 'u';
  if (!ShapedType::isDynamic(batch))
    suffix += "_" + std::to_string(batch);
  return suffix;
}

/// `value` with axis `from` moved to position `to` (linalg.transpose).
Value moveAxis(OpBuilder &builder, Location loc, Value value, int64_t from,
               int64_t to) {
  if (from == to)
    return value;
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> permutation =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  permutation.erase(permutation.begin() + from);
  permutation.insert(permutation.begin() + to, from);
  SmallVector<int64_t> shape;
  SmallVector<Value> dynamicSizes;
  for (int64_t dim : permutation) {
    shape.push_back(type.getDimSize(dim));
    if (type.isDynamicDim(dim))
      dynamicSizes.push_back(builder.create<tensor::DimOp>(loc, value, dim));
  }
  Value empty = builder.create<tensor::EmptyOp>(
      loc, RankedTensorType::get(shape, type.getElementType()), dynamicSizes);
  return builder.create<linalg::TransposeOp>(loc, value, empty, permutation)
      ->getResult(0);
}

} // namespace

FailureOr<BatchedFunc> VmapExpander::getBatched(func::FuncOp callee,
                                                ArrayRef<bool> signature,
                                                int64_t batch, Operation *site,
                                                bool masked, bool inGang) {
  auto key =
      std::make_tuple(callee.getOperation(),
                      std::vector<bool>(signature.begin(), signature.end()),
                      batch, masked, inGang);
  auto it = cache.find(key);
  if (it != cache.end())
    return it->second;

  FailureOr<const BatchednessAnalysis *> analysis =
      solver.analyze(callee, signature, site);
  if (failed(analysis))
    return failure();

  // Loops whose trip count differs per lane are rewritten as while loops in
  // a scratch copy; the copy is then what gets batched.
  func::FuncOp source = callee;
  OwningOpRef<func::FuncOp> scratch;
  auto divergentFors = [&](func::FuncOp func,
                           const BatchednessAnalysis &result) {
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      if (result.isControlBatched(loop))
        loops.push_back(loop);
    });
    return loops;
  };
  if (!divergentFors(callee, **analysis).empty()) {
    scratch = callee.clone();
    while (true) {
      analysis = solver.analyze(*scratch, signature, site);
      if (failed(analysis))
        return failure();
      SmallVector<scf::ForOp> loops = divergentFors(*scratch, **analysis);
      if (loops.empty())
        break;
      // Converting a loop clones the loops nested in it, so only the
      // outermost ones go in each round.
      DenseSet<Operation *> found;
      for (scf::ForOp loop : loops)
        found.insert(loop);
      SmallVector<scf::ForOp> outermost;
      for (scf::ForOp loop : loops) {
        bool nested = false;
        for (Operation *parent = loop->getParentOp(); parent;
             parent = parent->getParentOp())
          nested = nested || found.contains(parent);
        if (!nested)
          outermost.push_back(loop);
      }
      for (scf::ForOp loop : outermost)
        convertForToWhile(loop);
      solver.forget(*scratch);
    }
    source = *scratch;
  }

  SmallVector<Type> inputs, results;
  for (auto [type, isBatched] : llvm::zip(callee.getArgumentTypes(), signature))
    inputs.push_back(isBatched ? batchType(type, 0, batch) : type);
  for (auto [type, isBatched] :
       llvm::zip(callee.getResultTypes(), (*analysis)->getResultBatched()))
    results.push_back(isBatched ? batchType(type, 0, batch) : type);
  if (masked)
    inputs.push_back(
        batchType(IntegerType::get(module.getContext(), 1), 0, batch));
  auto func = func::FuncOp::create(
      callee.getLoc(),
      (callee.getSymName() + signatureSuffix(signature, batch) +
       (masked ? "_masked" : "") + (inGang ? "_gang" : ""))
          .str(),
      FunctionType::get(module.getContext(), inputs, results));
  func.setPrivate();
  func->setAttr(LoomDialect::kBatchedAttrName,
                UnitAttr::get(module.getContext()));
  for (unsigned i = 0; i < callee.getNumArguments(); ++i) {
    if (Attribute name = callee.getArgAttr(i, LoomDialect::kNameAttrName))
      func.setArgAttr(i, LoomDialect::kNameAttrName, name);
    // A masked loop updates its carries in place; when a carry starts as an
    // argument, bufferization must copy it once at entry, not write into the
    // caller's buffer (the user's input, when the caller is an entry).
    if (isa<RankedTensorType>(inputs[i]))
      func.setArgAttr(i, "bufferization.writable",
                      BoolAttr::get(module.getContext(), false));
  }
  for (unsigned i = 0; i < callee.getNumResults(); ++i)
    if (Attribute name = callee.getResultAttr(i, LoomDialect::kNameAttrName))
      func.setResultAttr(i, LoomDialect::kNameAttrName, name);
  symbolTable.insert(func, std::next(callee->getIterator()));
  clones.insert(func);
  sources.insert(callee);

  BatchedFunc batched{func, SmallVector<bool>((*analysis)->getResultBatched())};
  cache[key] = batched;
  FunctionBatcher batcher(*this, **analysis, batch, inGang,
                          this->isGangLoop(callee));
  LogicalResult result = batcher.run(source, func, masked);
  if (scratch)
    solver.forget(*scratch);
  if (failed(result))
    return failure();
  return batched;
}

FailureOr<BatchedFunc> VmapExpander::batchGangBody(func::FuncOp scalar,
                                                   ArrayRef<bool> signature,
                                                   Operation *site,
                                                   bool isGangLoop) {
  // Next to the function the loop was outlined from, which the symbol
  // table renames it from if need be.
  Operation *anchor = site->getParentOfType<func::FuncOp>();
  while (anchor && anchor->getParentOp() != module.getOperation())
    anchor = anchor->getParentOp();
  symbolTable.insert(scalar,
                     anchor ? anchor->getIterator() : module.getBody()->end());
  gangBodies.push_back(scalar);
  if (isGangLoop)
    gangLoops.insert(scalar);
  return getBatched(scalar, signature, settings.gangWidth, site,
                    /*masked=*/true, /*inGang=*/true);
}

void VmapExpander::eraseGangBodies() {
  for (Operation *body : gangBodies) {
    solver.forget(cast<func::FuncOp>(body));
    symbolTable.erase(body);
  }
  gangBodies.clear();
  gangLoops.clear();
}

// vmap(f, in_axes, out_axes)(xs) => moveaxis(f_vmap(moveaxis(xs, a, 0)), 0, o)
LogicalResult VmapExpander::expand(VmapOp vmap) {
  auto callee = symbolTable.lookup<func::FuncOp>(vmap.getCallee());
  if (!callee)
    return vmap.emitOpError()
           << "'" << vmap.getCallee() << "' does not reference a func.func";
  if (callee.isExternal())
    return vmap.emitError() << "cannot vmap @" << vmap.getCallee()
                            << ": it is only declared, and vmap needs its body";

  OpBuilder builder(vmap);
  Location loc = vmap.getLoc();
  int64_t batch = vmap.getBatchSize();
  SmallVector<bool> signature;
  SmallVector<Value> operands;
  Value firstBatched;
  for (auto [input, axis] : llvm::zip(vmap.getInputs(), vmap.getInAxes())) {
    signature.push_back(axis != VmapOp::kNotBatched);
    if (axis == VmapOp::kNotBatched) {
      operands.push_back(input);
      continue;
    }
    Value moved = moveAxis(builder, loc, input, axis, 0);
    if (!firstBatched)
      firstBatched = moved;
    operands.push_back(moved);
  }

  FailureOr<BatchedFunc> batched = getBatched(callee, signature, batch, vmap);
  if (failed(batched))
    return failure();
  for (auto [i, axis] : llvm::enumerate(vmap.getOutAxes()))
    if (axis == VmapOp::kNotBatched && batched->resultBatched[i])
      return vmap.emitError()
             << "result #" << i << " of @" << vmap.getCallee()
             << " differs per lane, so out_axes[" << i << "] cannot be none";

  auto call = builder.create<func::CallOp>(loc, batched->func, operands);
  SmallVector<Value> results;
  for (auto [i, axis] : llvm::enumerate(vmap.getOutAxes())) {
    Value result = call.getResult(i);
    if (axis != VmapOp::kNotBatched) {
      if (!batched->resultBatched[i]) {
        // out_axes asks for a batch axis on a value every lane shares.
        Type type = batchType(result.getType(), 0, batch);
        SmallVector<Value> sizes;
        if (ShapedType::isDynamic(batch))
          sizes.push_back(builder.create<tensor::DimOp>(loc, firstBatched, 0));
        if (auto tensor = dyn_cast<RankedTensorType>(result.getType()))
          for (int64_t dim = 0; dim < tensor.getRank(); ++dim)
            if (tensor.isDynamicDim(dim))
              sizes.push_back(builder.create<tensor::DimOp>(loc, result, dim));
        Value empty = builder.create<tensor::EmptyOp>(
            loc, cast<RankedTensorType>(type), sizes);
        result = isa<RankedTensorType>(result.getType())
                     ? builder
                           .create<linalg::BroadcastOp>(loc, result, empty,
                                                        ArrayRef<int64_t>{0})
                           ->getResult(0)
                     : builder.create<linalg::FillOp>(loc, result, empty)
                           .getResult(0);
      }
      result = moveAxis(builder, loc, result, 0, axis);
    }
    results.push_back(result);
  }
  vmap.replaceAllUsesWith(results);
  vmap.erase();
  return success();
}

namespace {

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// Functions that contain a loom.vmap, or reach one through calls or vmaps:
/// their own vmaps must be expanded before anything batches them.
DenseSet<Operation *> getFunctionsReachingVmap(ModuleOp module) {
  DenseSet<Operation *> reaching;
  SymbolTable symbols(module);
  bool changed = true;
  while (changed) {
    changed = false;
    module.walk([&](func::FuncOp func) {
      if (reaching.contains(func))
        return;
      bool reaches = false;
      func.walk([&](Operation *op) {
        if (isa<VmapOp>(op)) {
          reaches = true;
        } else if (auto call = dyn_cast<func::CallOp>(op)) {
          if (Operation *callee = symbols.lookup(call.getCallee()))
            reaches = reaches || reaching.contains(callee);
        }
      });
      if (reaches) {
        reaching.insert(func);
        changed = true;
      }
    });
  }
  return reaching;
}

struct LoomVmapPass : public mlir::loom::impl::LoomVmapPassBase<LoomVmapPass> {
  using LoomVmapPassBase::LoomVmapPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    VmapSettings settings;
    settings.divergent = divergent;
    settings.gangWidth = gangWidth;
    settings.refill = refill;
    if (gangWidth == 0) {
      module.emitError() << "gang-width must be at least 1";
      return signalPassFailure();
    }
    if (refill && divergent != DivergentPolicy::Gang) {
      module.emitError() << "refill applies to gangs: it needs divergent=gang, "
                         << "got divergent=" << toString(divergent.getValue());
      return signalPassFailure();
    }
    if (divergent == DivergentPolicy::Gang && target == VmapTarget::GPU) {
      module.emitError()
          << "divergent=gang is not available with target=gpu: a GPU's "
          << "warps already run lanes in gangs, and each lane is a thread "
          << "(use auto or per-lane)";
      return signalPassFailure();
    }
    settings.cost.target = target;
    settings.cost.simdWidth = simdWidth;
    settings.cost.divergencePerDoubling = divergencePerDoubling;
    settings.cost.maskedOpCost = maskedOpCost;
    settings.cost.laneOpCost = laneOpCost;
    settings.cost.gangWidth = gangWidth;
    settings.cost.onePassOpCost = onePassOpCost;
    settings.cost.gangOpCost = gangOpCost;
    settings.cost.gangOnePassOpCost = gangOnePassOpCost;
    settings.cost.batchedLaneOpCost = batchedLaneOpCost;
    settings.cost.tableReadCost = tableReadCost;
    settings.cost.carriedLatencyCost = carriedLatencyCost;
    settings.cost.gangOverhead = gangOverhead;
    settings.cost.refillOpCost = refillOpCost;
    settings.cost.vectorLibmOps = vectorLibmOps;
    settings.cost.adaptive = adaptive;
    settings.cost.adaptiveFactor = adaptiveFactor;
    settings.assumedBatch = assumedBatch;
    VmapExpander expander(module, settings);

    // Expand vmaps whose callee reaches no other vmap first, so a batched
    // clone never contains a vmap; a vmap inside a clone (one whose operands
    // are the same on every lane) is expanded in a later round. Every round
    // replaces at least one vmap by a call of a clone that holds none, so
    // the rounds end; a round with nothing ready is a cycle.
    while (true) {
      DenseSet<Operation *> reaching = getFunctionsReachingVmap(module);
      SmallVector<VmapOp> all, ready;
      module.walk([&](VmapOp vmap) {
        all.push_back(vmap);
        Operation *callee =
            SymbolTable::lookupNearestSymbolFrom(vmap, vmap.getCalleeAttr());
        if (!reaching.contains(callee))
          ready.push_back(vmap);
      });
      if (all.empty())
        break;
      if (ready.empty()) {
        all.front().emitError()
            << "cannot expand loom.vmap of @" << all.front().getCallee()
            << ": the vmaps in the functions it reaches form a cycle";
        return signalPassFailure();
      }
      for (VmapOp vmap : ready)
        if (failed(expander.expand(vmap)))
          return signalPassFailure();
    }
    expander.eraseGangBodies();
    dropPinsOutsideClones(expander);
  }

  /// After this pass, `loom.strategy` on a loop is what loom-vmap decided for
  /// a loop it built; a pin elsewhere has done its job (on a loop of a
  /// function that was batched) or never had one (a loop loom-vmap does not
  /// batch, such as a hand-written batched loop in an entry), and is dropped
  /// so that no later pass mistakes it for a decision.
  void dropPinsOutsideClones(VmapExpander &expander) {
    getOperation().walk([&](func::FuncOp func) {
      if (expander.isBatchedClone(func))
        return;
      bool used = expander.isBatchedSource(func);
      func.walk(
          [&](scf::WhileOp loop) {
            if (!loop->removeAttr(LoomDialect::kStrategyAttrName) || used)
              return;
            loop.emitWarning()
                << "loom.strategy has no effect here: it pins how loom-vmap "
                << "batches a loop of a function it batches, and no loom.vmap "
                << "batches @" << func.getSymName();
          });
    });
  }
};

} // namespace
