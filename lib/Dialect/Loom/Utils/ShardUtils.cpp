//===- ShardUtils.cpp - The shard context and Loom's collectives ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Mesh/IR/MeshDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// The shard context
//===----------------------------------------------------------------------===//

Value mlir::loom::getShardContext(func::FuncOp func) {
  for (unsigned i = 0; i < func.getNumArguments(); ++i)
    if (func.getArgAttr(i, LoomDialect::kContextAttrName))
      return func.getArgument(i);
  return {};
}

Value mlir::loom::getEnclosingShardContext(Operation *op) {
  auto func = op->getParentOfType<func::FuncOp>();
  return func ? getShardContext(func) : Value();
}

void mlir::loom::addShardContexts(ModuleOp module,
                                  ArrayRef<func::FuncOp> roots) {
  SymbolTable symbols(module);
  DenseMap<func::FuncOp, SmallVector<func::CallOp>> callsOf;
  module.walk([&](func::CallOp call) {
    if (auto callee = symbols.lookup<func::FuncOp>(call.getCallee()))
      callsOf[callee].push_back(call);
  });
  // Callers of functions that need a context need one too: a worklist over
  // the reverse call graph, which reaches every caller once, cycles or not.
  SetVector<func::FuncOp> needs(roots.begin(), roots.end());
  for (size_t i = 0; i < needs.size(); ++i)
    for (func::CallOp call : callsOf.lookup(needs[i]))
      needs.insert(call->getParentOfType<func::FuncOp>());

  Builder b(module.getContext());
  SmallVector<func::FuncOp> added;
  for (func::FuncOp func : needs) {
    if (getShardContext(func))
      continue;
    func.insertArgument(func.getNumArguments(), b.getI64Type(),
                        b.getDictionaryAttr(b.getNamedAttr(
                            LoomDialect::kContextAttrName, b.getUnitAttr())),
                        func.getLoc());
    added.push_back(func);
  }
  for (func::FuncOp callee : added)
    for (func::CallOp call : callsOf.lookup(callee))
      call->insertOperands(call->getNumOperands(),
                           getEnclosingShardContext(call));
}

int64_t mlir::loom::getNumShards(ModuleOp module) {
  int64_t shards = 1;
  for (auto m : module.getOps<mesh::MeshOp>())
    shards = m.getShape()[0];
  return shards;
}

LogicalResult mlir::loom::checkNotYetSharded(ModuleOp module) {
  WalkResult result = module.walk([&](Operation *op) {
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      for (unsigned i = 0; i < func.getNumArguments(); ++i)
        if (func.getArgAttr(i, LoomDialect::kContextAttrName)) {
          mlir::emitError(func.getArgument(i).getLoc())
              << "argument #" << i << " of @" << func.getSymName()
              << " carries loom.context, which only Loom's own sharding adds "
              << "(the shard context is not a program input): remove it, "
              << "and give Loom the program from before loom-shard";
          return WalkResult::interrupt();
        }
      return WalkResult::advance();
    }
    if (isa_and_nonnull<mesh::MeshDialect>(op->getDialect()) &&
        !isa<mesh::MeshOp>(op)) {
      op->emitError() << "'" << op->getName()
                      << "' is a collective only Loom's own sharding adds: "
                      << "give Loom the program from before loom-shard";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

//===----------------------------------------------------------------------===//
// Collectives
//===----------------------------------------------------------------------===//

bool mlir::loom::isShardCollective(Operation *op) {
  return isa<mesh::AllReduceOp, mesh::AllGatherOp>(op);
}

bool mlir::loom::needsShardContext(Operation *op) {
  return isShardCollective(op) || isa<VariantBeginOp, VariantEndOp>(op);
}

ScalarAllReduce mlir::loom::buildScalarAllReduce(OpBuilder &b, Location loc,
                                                 Value local,
                                                 StringRef meshName,
                                                 mesh::ReductionKind kind) {
  ScalarAllReduce r;
  r.local = local;
  r.wrap = b.create<tensor::FromElementsOp>(
      loc, RankedTensorType::get({1}, local.getType()), local);
  r.reduce = b.create<mesh::AllReduceOp>(loc, r.wrap.getResult(), meshName,
                                         ArrayRef<mesh::MeshAxis>{0}, kind);
  r.extract = b.create<tensor::ExtractOp>(
      loc, r.reduce.getResult(),
      ValueRange{b.create<arith::ConstantIndexOp>(loc, 0)});
  return r;
}

std::optional<ScalarAllReduce> mlir::loom::matchScalarAllReduce(Value whole) {
  auto extract = whole.getDefiningOp<tensor::ExtractOp>();
  if (!extract)
    return std::nullopt;
  auto reduce = extract.getTensor().getDefiningOp<mesh::AllReduceOp>();
  if (!reduce)
    return std::nullopt;
  auto wrap = reduce.getInput().getDefiningOp<tensor::FromElementsOp>();
  if (!wrap || wrap.getElements().size() != 1)
    return std::nullopt;
  return ScalarAllReduce{wrap, reduce, extract, wrap.getElements()[0]};
}

Value mlir::loom::lookThroughScalarAllReduce(Value value) {
  if (std::optional<ScalarAllReduce> r = matchScalarAllReduce(value))
    return r->local;
  return value;
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

bool mlir::loom::isMaskedByVmap(Operation *loop) {
  auto strategy =
      loop->getAttrOfType<LoopStrategyAttr>(LoomDialect::kStrategyAttrName);
  return strategy && strategy.getValue() == LoopStrategy::Masked;
}
