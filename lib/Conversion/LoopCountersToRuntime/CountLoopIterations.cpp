//===- CountLoopIterations.cpp - Per-loop counters for --stats ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/LoomRuntimeCommon/RuntimeFunctions.h"
#include "loom/Conversion/LoopCountersToRuntime/LoopCountersToRuntime.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/LocationUtils.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMCOUNTLOOPITERATIONS
#include "loom/Conversion/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

/// The lane mask of a loop loom-vmap built masked (or of a gang's slots,
/// with refill): the operand of the loom.any that decides it, seen through
/// the all-reduce loom-shard may have put around it, or the argument a
/// refill loop names. Any other loop runs as one lane.
Value maskOf(scf::WhileOp loop) {
  auto strategy =
      loop->getAttrOfType<LoopStrategyAttr>(LoomDialect::kStrategyAttrName);
  if (!isMaskedByVmap(loop) &&
      !(strategy && strategy.getValue() == LoopStrategy::Gang))
    return {};
  // The dialect's verifier has checked that it names a mask.
  if (auto at =
          loop->getAttrOfType<IntegerAttr>(LoomDialect::kLaneMaskAttrName))
    return loop.getBeforeArguments()[at.getInt()];
  Value cond = lookThroughScalarAllReduce(loop.getConditionOp().getCondition());
  if (auto any = cond.getDefiningOp<AnyOp>())
    if (any.getAxis() == 0 &&
        cast<RankedTensorType>(any.getInput().getType()).getRank() == 1)
      return any.getInput();
  return {};
}

/// The timed variant (a name of loom.variant_begin's) an op runs in: the
/// branch of the scf.if on a loom.variant_begin around it, or, in a
/// function, the one every call of the function runs in. Empty for none,
/// and for a function called from two variants (or from outside them).
class VariantNames {
public:
  explicit VariantNames(ModuleOp module) {
    module.walk([&](func::CallOp call) {
      calls[call.getCalleeAttr().getAttr()].push_back(call);
    });
  }

  StringRef of(Operation *op) {
    for (Operation *child = op, *parent = op->getParentOp(); parent;
         child = parent, parent = parent->getParentOp()) {
      if (auto branch = dyn_cast<scf::IfOp>(parent))
        if (auto begin =
                branch.getCondition().getDefiningOp<VariantBeginOp>()) {
          bool alternative =
              child->getParentRegion() == &branch.getThenRegion();
          if (std::optional<ArrayAttr> names = begin.getNames())
            return cast<StringAttr>((*names)[alternative ? 1 : 0]).getValue();
          return alternative ? "alternative" : "primary";
        }
      if (auto func = dyn_cast<func::FuncOp>(parent))
        return ofFunction(func);
    }
    return {};
  }

private:
  StringRef ofFunction(func::FuncOp func) {
    auto [it, inserted] = functions.try_emplace(func, StringRef());
    // Seen before, or being decided (a recursive call): an empty name
    // stands until then.
    if (!inserted)
      return it->second;
    std::optional<StringRef> name;
    for (func::CallOp call : calls.lookup(func.getSymNameAttr())) {
      StringRef caller = of(call);
      if (name && *name != caller)
        return {};
      name = caller;
    }
    return functions[func] = name.value_or(StringRef());
  }

  DenseMap<StringAttr, SmallVector<func::CallOp>> calls;
  DenseMap<Operation *, StringRef> functions;
};

struct LoomCountLoopIterations
    : mlir::loom::impl::LoomCountLoopIterationsBase<LoomCountLoopIterations> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Only code that runs on a mesh has a context to count into; reach the
    // loops of its callees by giving them one too.
    // Functions that run on a mesh: those with a context, and what they
    // call.
    SymbolTable symbols(module);
    SetVector<func::FuncOp> onMesh;
    for (auto func : module.getOps<func::FuncOp>())
      if (getShardContext(func))
        onMesh.insert(func);
    for (size_t i = 0; i < onMesh.size(); ++i) {
      func::FuncOp func = onMesh[i];
      func.walk([&](func::CallOp call) {
        if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
          if (!callee.isExternal())
            onMesh.insert(callee);
      });
    }
    SmallVector<func::FuncOp> roots;
    for (func::FuncOp func : onMesh)
      if (func->walk([](scf::WhileOp) { return WalkResult::interrupt(); })
              .wasInterrupted())
        roots.push_back(func);
    addShardContexts(module, roots);

    OpBuilder b(module.getContext());
    Type i64 = b.getI64Type();
    func::FuncOp counter = declareRuntimeFunction(
        module, symbols, RuntimeFunction::CountIteration);

    SmallVector<Attribute> table;
    VariantNames variants(module);
    int32_t id = 0;
    module.walk<WalkOrder::PreOrder>([&](scf::WhileOp loop) {
      auto func = loop->getParentOfType<func::FuncOp>();
      Value ctx = getShardContext(func);
      if (!ctx || !onMesh.contains(func))
        return;
      Value mask = maskOf(loop);
      scf::ConditionOp cond = loop.getConditionOp();
      b.setInsertionPoint(cond);
      Location loc = loop.getLoc();
      Value lanes;
      if (mask) {
        // Active lanes = sum of the mask, as i64.
        auto maskType = cast<RankedTensorType>(mask.getType());
        Value wide = b.create<arith::ExtUIOp>(
            loc, RankedTensorType::get(maskType.getShape(), i64), mask);
        lanes = b.create<SumOp>(loc, i64, wide, b.getI64IntegerAttr(0));
      } else {
        lanes = b.create<arith::ConstantIntOp>(loc, 1, 64);
      }
      Value idV = b.create<arith::ConstantIntOp>(loc, id, 32);
      // Counted when the body will run, that is, when the loop goes on.
      b.create<scf::IfOp>(
          loc, cond.getCondition(), [&](OpBuilder &nb, Location nl) {
            nb.create<func::CallOp>(nl, counter, ValueRange{ctx, idV, lanes});
            nb.create<scf::YieldOp>(nl);
          });
      SmallVector<NamedAttribute> entry{
          b.getNamedAttr("loc", b.getStringAttr(locationString(loc))),
          b.getNamedAttr("masked", b.getBoolAttr(static_cast<bool>(mask)))};
      // A gang's mask has its fixed width, not the shard's lanes: the lanes
      // each iteration covers, for lane utilisation.
      if (mask)
        if (int64_t lanes =
                cast<RankedTensorType>(mask.getType()).getDimSize(0);
            !ShapedType::isDynamic(lanes))
          entry.push_back(b.getNamedAttr("lanes", b.getI64IntegerAttr(lanes)));
      if (StringRef variant = variants.of(loop); !variant.empty())
        entry.push_back(b.getNamedAttr("variant", b.getStringAttr(variant)));
      table.push_back(b.getDictionaryAttr(entry));
      ++id;
    });
    module->setAttr(LoomDialect::kLoopsAttrName, b.getArrayAttr(table));
  }
};

} // namespace
