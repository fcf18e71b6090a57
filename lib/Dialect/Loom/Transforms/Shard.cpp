//===- Shard.cpp - Partition batched functions over a mesh ----------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The program each shard runs is the batched program itself, on the shard's
// lanes: batch sizes are dynamic after loom-vmap, so nothing changes shape.
// What changes are the values that reduce across the batch axis: they need
// every shard's lanes, so a collective joins them. This file finds those
// values by tracking which axis of each value is split (ShardAxes.h), from
// axis 0 of the entry arguments, and inserts the collectives GSPMD would.
//
//===----------------------------------------------------------------------===//

#include "ShardAxes.h"

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"
#include "loom/Support/Limits.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Mesh/IR/MeshDialect.h"
#include "mlir/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMSHARD
#include "loom/Dialect/Loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

static constexpr StringLiteral kDefaultMeshName = "loom_mesh";

namespace {

struct LoomShard : mlir::loom::impl::LoomShardBase<LoomShard> {
  using LoomShardBase::LoomShardBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (shards < 0 || shards > ::loom::kMaxShards) {
      module.emitError() << "shards must be 1 to " << ::loom::kMaxShards
                         << " (0: from the mesh), got "
                         << static_cast<int64_t>(shards);
      return signalPassFailure();
    }
    if (failed(checkNotYetSharded(module)))
      return signalPassFailure();

    // Entries: functions whose arguments carry a batch axis.
    SmallVector<func::FuncOp> entries;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      bool isEntry = false;
      for (unsigned i = 0; i < func.getNumArguments(); ++i) {
        auto axis = func.getArgAttrOfType<IntegerAttr>(
            i, LoomDialect::kBatchAxisAttrName);
        if (!axis)
          continue;
        if (axis.getInt() != 0) {
          func.emitError() << "argument #" << i << " of @" << func.getSymName()
                           << " is batched along axis " << axis.getInt()
                           << ", but loom-shard splits axis 0 only (batch it "
                           << "along axis 0: in_axes 0)";
          return signalPassFailure();
        }
        isEntry = true;
      }
      for (unsigned i = 0; i < func.getNumResults(); ++i) {
        auto axis = func.getResultAttrOfType<IntegerAttr>(
            i, LoomDialect::kBatchAxisAttrName);
        if (axis && axis.getInt() != 0) {
          func.emitError() << "result #" << i << " of @" << func.getSymName()
                           << " is batched along axis " << axis.getInt()
                           << ", but loom-shard joins axis 0 only (out_axes "
                           << "0)";
          return signalPassFailure();
        }
      }
      if (isEntry)
        entries.push_back(func);
    }
    if (entries.empty()) {
      if (shards > 1) {
        module.emitError()
            << "nothing to shard over " << static_cast<int64_t>(shards)
            << " shards: no function argument carries loom.batch_axis (run "
            << "-loom-annotate-batch-axes before -loom-vmap, or mark the "
            << "batched arguments)";
        return signalPassFailure();
      }
      return;
    }

    FailureOr<mesh::MeshOp> meshOp = getOrCreateMesh(module);
    if (failed(meshOp))
      return signalPassFailure();

    ShardAxes axes(module);
    for (func::FuncOp entry : entries)
      for (unsigned i = 0; i < entry.getNumArguments(); ++i)
        if (entry.getArgAttr(i, LoomDialect::kBatchAxisAttrName))
          axes.seed(entry.getArgument(i), 0);
    if (failed(axes.run()))
      return signalPassFailure();

    // A result said to be batched must come out split; and a result that
    // comes out split is batched, whatever ops it went through after
    // loom.vmap: without the mark the runtime would return shard 0's lanes
    // only.
    Builder builder(module.getContext());
    for (func::FuncOp entry : entries) {
      Operation *ret = entry.getBody().back().getTerminator();
      for (unsigned i = 0; i < entry.getNumResults(); ++i) {
        std::optional<ShardFact> fact = axes.lookup(ret->getOperand(i));
        if (fact && fact->kind != ShardFact::Split) {
          ret->emitError() << "result #" << i << " of @" << entry.getSymName()
                           << " is a shard-local "
                           << (fact->kind == ShardFact::LocalSize
                                   ? "batch size"
                                   : "lane index")
                           << ", which differs from shard to shard";
          return signalPassFailure();
        }
        if (fact && fact->axis != 0) {
          ret->emitError() << "result #" << i << " of @" << entry.getSymName()
                           << " comes out split along axis " << fact->axis
                           << ", but the runtime joins the shards along "
                           << "axis 0 only (move the batch axis to the "
                           << "front)";
          return signalPassFailure();
        }
        bool split = fact.has_value();
        if (split && !entry.getResultAttr(i, LoomDialect::kBatchAxisAttrName))
          entry.setResultAttr(i, LoomDialect::kBatchAxisAttrName,
                              builder.getI64IntegerAttr(0));
        if (entry.getResultAttr(i, LoomDialect::kBatchAxisAttrName) && !split) {
          ret->emitError() << "result #" << i << " of @" << entry.getSymName()
                           << " is marked batched but does not depend on "
                           << "the batched arguments";
          return signalPassFailure();
        }
      }
    }

    // Only a reduction along its input's split axis needs other shards'
    // lanes; one along another axis, or over a lane's own slice, does not.
    SmallVector<std::pair<Reduction, int64_t>> crossing;
    module.walk([&](Operation *op) {
      Reduction r = Reduction::match(op);
      if (r.op && axes.crossesShards(r))
        crossing.emplace_back(r, *axes.splitAxis(r.input));
    });
    StringRef meshName = meshOp->getSymName();
    for (auto &[r, axis] : crossing)
      if (failed(insertCollective(r, axis, meshName)))
        return signalPassFailure();

    addContexts(module, entries);
  }

  /// The one 1-d mesh, created or resized as the option says.
  FailureOr<mesh::MeshOp> getOrCreateMesh(ModuleOp module) {
    auto meshes = llvm::to_vector(module.getOps<mesh::MeshOp>());
    OpBuilder b(module.getBodyRegion());
    if (meshes.size() > 1) {
      meshes[1].emitError() << "Loom shards over one mesh, but the module "
                            << "has " << meshes.size();
      return failure();
    }
    int64_t n = shards > 0 ? static_cast<int64_t>(shards) : 1;
    if (meshes.empty())
      return b.create<mesh::MeshOp>(module.getLoc(), kDefaultMeshName,
                                    ArrayRef<int64_t>{n});
    mesh::MeshOp m = meshes.front();
    if (m.getShape().size() != 1) {
      m.emitError() << "Loom shards over a 1-d mesh, but @" << m.getSymName()
                    << " has " << m.getShape().size() << " axes";
      return failure();
    }
    if (shards > 0)
      m.setShape(ArrayRef<int64_t>{n});
    else if (ShapedType::isDynamic(m.getShape()[0]) || m.getShape()[0] < 1) {
      m.emitError() << "the mesh must have a static, positive size (or pass "
                    << "shards=N)";
      return failure();
    }
    return m;
  }

  // R(x along a) with x split along a => all_reduce(R_local(x)) for
  // any/all/max/min and integer sums; sum(all_gather(x)) for float sums, so
  // they add in lane order whatever the shard count.
  LogicalResult insertCollective(Reduction &r, int64_t axis,
                                 StringRef meshName) {
    OpBuilder b(r.op->getContext());
    Location loc = r.op->getLoc();
    Value result = r.op->getResult(0);
    SmallVector<mesh::MeshAxis> axes{0};
    if (r.kind == "sum" && isa<FloatType>(getElementTypeOrSelf(result))) {
      b.setInsertionPoint(r.op);
      // Gathered, the axis holds every shard's lanes: its static size, if
      // any, was this shard's.
      auto type = cast<RankedTensorType>(r.input.getType());
      SmallVector<int64_t> shape(type.getShape());
      shape[axis] = ShapedType::kDynamic;
      auto gathered = b.create<mesh::AllGatherOp>(
          loc, type.clone(shape),
          FlatSymbolRefAttr::get(b.getContext(), meshName),
          b.getDenseI16ArrayAttr(axes), r.input, b.getIndexAttr(axis));
      r.op->setOperand(0, gathered.getResult());
      return success();
    }
    mesh::ReductionKind kind = llvm::StringSwitch<mesh::ReductionKind>(r.kind)
                                   .Case("any", mesh::ReductionKind::BitwiseOr)
                                   .Case("all", mesh::ReductionKind::BitwiseAnd)
                                   .Case("max", mesh::ReductionKind::Max)
                                   .Case("min", mesh::ReductionKind::Min)
                                   .Default(mesh::ReductionKind::Sum);
    b.setInsertionPointAfter(r.op);
    if (!isa<RankedTensorType>(result.getType())) {
      ScalarAllReduce reduced =
          buildScalarAllReduce(b, loc, result, meshName, kind);
      result.replaceAllUsesExcept(reduced.whole(), reduced.wrap);
      return success();
    }
    auto reduced =
        b.create<mesh::AllReduceOp>(loc, result, meshName, axes, kind);
    result.replaceAllUsesExcept(reduced.getResult(), reduced);
    return success();
  }

  /// Every entry, and every function that holds a collective or a variant
  /// choice, takes the shard context.
  void addContexts(ModuleOp module, ArrayRef<func::FuncOp> entries) {
    SmallVector<func::FuncOp> roots(entries.begin(), entries.end());
    module.walk([&](Operation *op) {
      if (needsShardContext(op))
        roots.push_back(op->getParentOfType<func::FuncOp>());
    });
    addShardContexts(module, roots);
  }
};

} // namespace
