//===- ShardAxes.cpp - Which axis of each value is split across shards ----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A value is not just "sharded or not": a lane's own tensor<4xi32>, sliced
// out of the batch at a loop over this shard's lanes, lives on one shard
// whole, and a reduction over it must not meet the other shards. So each
// rule below says where the split axis goes, op kind by op kind, and an op
// that reads a tracked value without a rule is an error rather than a
// guess.
//
//===----------------------------------------------------------------------===//

#include "ShardAxes.h"

#include "loom/Dialect/Loom/IR/LoomOps.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::loom;

Reduction Reduction::match(Operation *op) {
  Reduction r;
  auto fill = [&](auto red, StringRef kind) {
    r.op = red;
    r.input = red.getInput();
    r.axis = red.getAxis();
    r.kind = kind;
  };
  if (auto o = dyn_cast<AnyOp>(op))
    fill(o, "any");
  else if (auto o = dyn_cast<AllOp>(op))
    fill(o, "all");
  else if (auto o = dyn_cast<SumOp>(op))
    fill(o, "sum");
  else if (auto o = dyn_cast<MaxOp>(op))
    fill(o, "max");
  else if (auto o = dyn_cast<MinOp>(op))
    fill(o, "min");
  return r;
}

static std::string describe(ShardFact fact) {
  switch (fact.kind) {
  case ShardFact::Split:
    return "a tensor split across shards along axis " +
           std::to_string(fact.axis);
  case ShardFact::LocalSize:
    return "the shard-local batch size";
  case ShardFact::LaneIndex:
    return "a shard-local lane index";
  case ShardFact::LaneIndices:
    return "a tensor of shard-local lane indices";
  }
  llvm_unreachable("unknown fact");
}

void ShardAxes::seed(Value v, int64_t axis) {
  facts[v] = ShardFact{ShardFact::Split, axis};
}

std::optional<ShardFact> ShardAxes::lookup(Value v) const {
  auto it = facts.find(v);
  if (it == facts.end())
    return std::nullopt;
  return it->second;
}

std::optional<int64_t> ShardAxes::splitAxis(Value v) const {
  std::optional<ShardFact> fact = lookup(v);
  if (!fact || fact->kind != ShardFact::Split)
    return std::nullopt;
  return fact->axis;
}

bool ShardAxes::crossesShards(const Reduction &r) const {
  std::optional<int64_t> axis = splitAxis(r.input);
  return axis && *axis == r.axis;
}

LogicalResult ShardAxes::run() {
  do {
    changed = false;
    module.walk([&](Operation *op) { (void)visit(op); });
  } while (changed);
  checking = true;
  WalkResult result = module.walk([&](Operation *op) {
    return failed(visit(op)) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult ShardAxes::set(Value v, ShardFact fact, Operation *at) {
  if (fact.kind == ShardFact::Split) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || fact.axis < 0 || fact.axis >= type.getRank())
      return unsupported(at, "gives " + describe(fact) + " as a value of " +
                                 "type that has no such axis");
  } else if (fact.kind == ShardFact::LaneIndices) {
    auto type = dyn_cast<RankedTensorType>(v.getType());
    if (!type || !type.getElementType().isIndex())
      return unsupported(at, "turns " + describe(fact) +
                                 " into a value of another type");
  } else if (!v.getType().isIndex()) {
    return unsupported(at, "turns " + describe(fact) +
                               " into a value of "
                               "another type");
  }
  auto [it, inserted] = facts.try_emplace(v, fact);
  if (inserted) {
    changed = true;
    return success();
  }
  if (it->second != fact)
    return unsupported(at, "meets " + describe(it->second) + " and " +
                               describe(fact) + " in one value");
  return success();
}

LogicalResult ShardAxes::unsupported(Operation *op, const Twine &why) {
  if (!checking)
    return success();
  return op->emitOpError() << "cannot be split across shards: it " << why;
}

LogicalResult ShardAxes::merge(ValueRange from, ArrayRef<Value> to,
                               Operation *at) {
  for (Value v : from)
    if (std::optional<ShardFact> fact = lookup(v))
      for (Value t : to)
        if (failed(set(t, *fact, at)))
          return failure();
  return success();
}

LogicalResult ShardAxes::visit(Operation *op) {
  // Their parents read them (an unknown parent rejects what they carry).
  if (op->hasTrait<OpTrait::IsTerminator>() || isa<ModuleOp>(op) ||
      isa<FunctionOpInterface>(op))
    return success();
  if (Reduction r = Reduction::match(op); r.op)
    return visitReduction(r);

  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](tensor::DimOp dim) -> LogicalResult {
        if (lookup(dim.getIndex()))
          return unsupported(op, "takes a tracked index as its axis");
        std::optional<int64_t> axis = splitAxis(dim.getSource());
        if (!axis)
          return success();
        std::optional<int64_t> index = dim.getConstantIndex();
        if (!index)
          return unsupported(op, "reads a non-constant axis of " +
                                     describe(*lookup(dim.getSource())));
        if (*index == *axis)
          return set(dim.getResult(), {ShardFact::LocalSize}, op);
        return success();
      })
      .Case([&](scf::ForOp loop) -> LogicalResult {
        if (lookup(loop.getLowerBound()) || lookup(loop.getStep()))
          return unsupported(op, "starts or steps by a shard-local index");
        if (std::optional<ShardFact> ub = lookup(loop.getUpperBound())) {
          if (ub->kind != ShardFact::LocalSize)
            return unsupported(op, "runs up to " + describe(*ub));
          // A loop over this shard's lanes: its index is a local lane.
          if (failed(set(loop.getInductionVar(), {ShardFact::LaneIndex}, op)))
            return failure();
        }
        for (auto [i, arg] : llvm::enumerate(loop.getRegionIterArgs()))
          if (failed(merge({loop.getInitArgs()[i], loop.getYieldedValues()[i]},
                           {arg, loop.getResult(i)}, op)))
            return failure();
        return success();
      })
      .Case([&](scf::WhileOp loop) -> LogicalResult {
        for (auto [i, arg] :
             llvm::enumerate(loop.getBeforeBody()->getArguments()))
          if (failed(
                  merge({loop.getInits()[i], loop.getYieldOp().getResults()[i]},
                        {arg}, op)))
            return failure();
        for (auto [i, v] : llvm::enumerate(loop.getConditionOp().getArgs()))
          if (failed(merge(
                  {v}, {loop.getAfterBody()->getArgument(i), loop.getResult(i)},
                  op)))
            return failure();
        return success();
      })
      .Case([&](scf::IfOp branch) -> LogicalResult {
        for (unsigned i = 0; i < branch.getNumResults(); ++i) {
          SmallVector<Value> from{branch.thenYield().getOperand(i)};
          if (!branch.getElseRegion().empty())
            from.push_back(branch.elseYield().getOperand(i));
          if (failed(merge(from, {branch.getResult(i)}, op)))
            return failure();
        }
        return success();
      })
      .Case([&](func::CallOp call) -> LogicalResult {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (!callee || callee.isExternal()) {
          for (Value v : call.getOperands())
            if (std::optional<ShardFact> fact = lookup(v))
              return unsupported(op, "passes " + describe(*fact) +
                                         " to a function without a body");
          return success();
        }
        for (auto [i, operand] : llvm::enumerate(call.getOperands()))
          if (failed(merge({operand}, {callee.getArgument(i)}, op)))
            return failure();
        WalkResult walk = callee.walk([&](func::ReturnOp ret) {
          for (auto [i, v] : llvm::enumerate(ret.getOperands()))
            if (failed(merge({v}, {call.getResult(i)}, op)))
              return WalkResult::interrupt();
          return WalkResult::advance();
        });
        return failure(walk.wasInterrupted());
      })
      .Case([&](tensor::EmptyOp empty) {
        return visitSized(op, empty.getDynamicSizes());
      })
      .Case([&](tensor::SplatOp splat) -> LogicalResult {
        if (std::optional<ShardFact> fact = lookup(splat.getInput()))
          return unsupported(op, "fills a tensor with " + describe(*fact));
        return visitSized(op, splat.getDynamicSizes());
      })
      .Case([&](bufferization::AllocTensorOp alloc) -> LogicalResult {
        if (alloc.getSizeHint() && lookup(alloc.getSizeHint()))
          return unsupported(op, "takes a tracked size hint");
        if (Value copy = alloc.getCopy())
          if (failed(merge({copy}, {alloc.getResult()}, op)))
            return failure();
        return visitSized(op, alloc.getDynamicSizes());
      })
      .Case([&](tensor::CastOp cast) {
        return merge({cast.getSource()}, {cast.getResult()}, op);
      })
      .Case<tensor::ExtractSliceOp>([&](auto) { return visitExtractSlice(op); })
      .Case<tensor::InsertSliceOp>([&](auto) { return visitInsertSlice(op); })
      .Case([&](tensor::ExtractOp extract) {
        return visitExtractOrInsert(op, extract.getTensor(),
                                    extract.getIndices(), Value(), Value());
      })
      .Case([&](tensor::InsertOp insert) {
        return visitExtractOrInsert(op, insert.getDest(), insert.getIndices(),
                                    insert.getScalar(), insert.getResult());
      })
      .Case<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
          [&](auto) { return visitReshape(op); })
      .Case<linalg::LinalgOp>([&](auto) { return visitLinalg(op); })
      .Case<arith::AddIOp, arith::SubIOp, arith::MinUIOp, arith::MinSIOp,
            arith::CmpIOp>([&](auto) { return visitLanePosition(op); })
      .Default([&](Operation *) { return visitOther(op); });
}

LogicalResult ShardAxes::visitReduction(const Reduction &r) {
  std::optional<int64_t> axis = splitAxis(r.input);
  if (!axis || *axis == r.axis)
    // Along the split axis the result is whole again, after the collective
    // loom-shard adds.
    return success();
  return set(r.op->getResult(0),
             {ShardFact::Split, r.axis < *axis ? *axis - 1 : *axis}, r.op);
}

/// tensor.empty, tensor.splat, bufferization.alloc_tensor: an axis sized by
/// a local batch size is split.
LogicalResult ShardAxes::visitSized(Operation *op, ValueRange sizes) {
  auto type = cast<RankedTensorType>(op->getResult(0).getType());
  unsigned next = 0;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    if (!type.isDynamicDim(d))
      continue;
    std::optional<ShardFact> fact = lookup(sizes[next++]);
    if (!fact)
      continue;
    if (fact->kind != ShardFact::LocalSize)
      return unsupported(op, "sizes an axis by " + describe(*fact));
    if (failed(set(op->getResult(0), {ShardFact::Split, d}, op)))
      return failure();
  }
  return success();
}

namespace {
/// How a slice (or an index) meets the split axis of its tensor.
enum class Take { Whole, OneLane, Other };
} // namespace

/// How `slice` takes axis `axis` (of static size `dimSize`, or dynamic) of
/// a tensor split along it, by what `axes` knows of its index values.
static Take classify(const ShardAxes &axes,
                     OffsetSizeAndStrideOpInterface slice, int64_t axis,
                     int64_t dimSize) {
  OpFoldResult offset = slice.getMixedOffsets()[axis],
               size = slice.getMixedSizes()[axis],
               stride = slice.getMixedStrides()[axis];
  auto isValue = [&](OpFoldResult ofr, ShardFact::Kind kind) {
    auto v = dyn_cast<Value>(ofr);
    if (!v)
      return false;
    std::optional<ShardFact> fact = axes.lookup(v);
    return fact && fact->kind == kind;
  };
  if (isConstantIntValue(offset, 0) && isConstantIntValue(stride, 1) &&
      (isValue(size, ShardFact::LocalSize) ||
       (!ShapedType::isDynamic(dimSize) && isConstantIntValue(size, dimSize))))
    return Take::Whole;
  if (isConstantIntValue(size, 1) && isValue(offset, ShardFact::LaneIndex))
    return Take::OneLane;
  return Take::Other;
}

/// Every index operand of a slice must be untracked, except the one that
/// justifies `take` along `axis`.
static LogicalResult
checkSliceIndices(ShardAxes &axes, OffsetSizeAndStrideOpInterface slice,
                  std::optional<int64_t> axis, Take take,
                  llvm::function_ref<LogicalResult(const Twine &)> fail) {
  auto offsets = slice.getMixedOffsets(), sizes = slice.getMixedSizes(),
       strides = slice.getMixedStrides();
  for (int64_t i = 0, e = offsets.size(); i < e; ++i) {
    auto check = [&](OpFoldResult ofr, bool justified) -> LogicalResult {
      auto v = dyn_cast<Value>(ofr);
      if (!v || justified)
        return success();
      if (std::optional<ShardFact> fact = axes.lookup(v))
        return fail("slices at axis " + Twine(i) + " by " + describe(*fact));
      return success();
    };
    bool here = axis && *axis == i;
    if (failed(check(offsets[i], here && take == Take::OneLane)) ||
        failed(check(sizes[i], here && take == Take::Whole)) ||
        failed(check(strides[i], false)))
      return failure();
  }
  return success();
}

/// The result axis a source axis of a rank-reducing slice lands on.
static int64_t keptAxis(const llvm::SmallBitVector &dropped, int64_t axis) {
  int64_t kept = axis;
  for (int64_t i = 0; i < axis; ++i)
    if (dropped.test(i))
      --kept;
  return kept;
}

LogicalResult ShardAxes::visitExtractSlice(Operation *op) {
  auto slice = cast<tensor::ExtractSliceOp>(op);
  auto fail = [&](const Twine &why) { return unsupported(op, why); };
  std::optional<int64_t> axis = splitAxis(slice.getSource());
  if (!axis)
    return checkSliceIndices(*this, slice, std::nullopt, Take::Other, fail);
  int64_t a = *axis;
  Take take = classify(*this, slice, a, slice.getSourceType().getDimSize(a));
  if (take == Take::Other)
    return unsupported(op, "takes part of axis " + Twine(a) +
                               ", which is split across shards (loom-shard "
                               "slices the whole split axis, or one lane at "
                               "a loop over the shard's own lanes)");
  if (failed(checkSliceIndices(*this, slice, a, take, fail)))
    return failure();
  // One lane is lane-local: no longer split, and what reduces over it stays
  // on this shard.
  if (take == Take::OneLane)
    return success();
  return set(slice.getResult(),
             {ShardFact::Split, keptAxis(slice.getDroppedDims(), a)}, op);
}

LogicalResult ShardAxes::visitInsertSlice(Operation *op) {
  auto slice = cast<tensor::InsertSliceOp>(op);
  auto fail = [&](const Twine &why) { return unsupported(op, why); };
  std::optional<int64_t> axis = splitAxis(slice.getDest());
  std::optional<int64_t> sourceAxis = splitAxis(slice.getSource());
  if (!axis) {
    if (sourceAxis)
      return unsupported(op, "inserts " + describe(*lookup(slice.getSource())) +
                                 " into a tensor that is not split");
    return checkSliceIndices(*this, slice, std::nullopt, Take::Other, fail);
  }
  int64_t a = *axis;
  Take take = classify(*this, slice, a, slice.getDestType().getDimSize(a));
  if (take == Take::Other)
    return unsupported(op, "writes part of axis " + Twine(a) +
                               ", which is split across shards (loom-shard "
                               "writes the whole split axis, or one lane at "
                               "a loop over the shard's own lanes)");
  if (failed(checkSliceIndices(*this, slice, a, take, fail)))
    return failure();
  if (take == Take::OneLane && sourceAxis)
    return unsupported(op, "writes " + describe(*lookup(slice.getSource())) +
                               " into one lane");
  if (take == Take::Whole && sourceAxis != keptAxis(slice.getDroppedDims(), a))
    return unsupported(op, "overwrites the whole split axis " + Twine(a) +
                               " with a value not split along it");
  return set(slice.getResult(), {ShardFact::Split, a}, op);
}

LogicalResult ShardAxes::visitExtractOrInsert(Operation *op, Value tensor,
                                              ValueRange indices, Value scalar,
                                              Value result) {
  std::optional<int64_t> axis = splitAxis(tensor);
  std::optional<ShardFact> tensorFact = lookup(tensor);
  // Lane indices kept in a tensor of their own (not one split across
  // shards), and read back: still this shard's lanes.
  bool laneIndices =
      !axis && tensorFact && tensorFact->kind == ShardFact::LaneIndices;
  if (scalar)
    if (std::optional<ShardFact> fact = lookup(scalar)) {
      if (fact->kind != ShardFact::LaneIndex || axis ||
          (tensorFact && !laneIndices))
        return unsupported(op, "stores " + describe(*fact) + " in a tensor");
      laneIndices = true;
    }
  for (auto [i, index] : llvm::enumerate(indices)) {
    std::optional<ShardFact> fact = lookup(index);
    bool here = axis && *axis == static_cast<int64_t>(i);
    if (here && (!fact || fact->kind != ShardFact::LaneIndex))
      return unsupported(op, "indexes axis " + Twine(i) +
                                 ", which is split across shards, by a value "
                                 "other than a loop over the shard's own "
                                 "lanes (a global lane index has no meaning "
                                 "on one shard)");
    if (!here && fact)
      return unsupported(op,
                         "indexes axis " + Twine(i) + " by " + describe(*fact));
  }
  if (result && axis)
    return set(result, {ShardFact::Split, *axis}, op);
  if (laneIndices)
    return set(result ? result : op->getResult(0),
               {result ? ShardFact::LaneIndices : ShardFact::LaneIndex}, op);
  return success();
}

/// collapse_shape / expand_shape: the split axis goes to the group it is in,
/// when the group's other axes are unit ones before it (collapse), or after
/// an expansion that keeps the lanes on one axis (expand).
LogicalResult ShardAxes::visitReshape(Operation *op) {
  Value source = op->getOperand(0), result = op->getResult(0);
  auto sourceType = cast<RankedTensorType>(source.getType());
  auto resultType = cast<RankedTensorType>(result.getType());
  std::optional<int64_t> axis = splitAxis(source);
  if (auto collapse = dyn_cast<tensor::CollapseShapeOp>(op)) {
    if (!axis)
      return success();
    for (auto [g, group] :
         llvm::enumerate(collapse.getReassociationIndices())) {
      if (!llvm::is_contained(group, *axis))
        continue;
      for (int64_t d : group) {
        if (d == *axis)
          break;
        if (sourceType.getDimSize(d) != 1)
          return unsupported(op, "merges split axis " + Twine(*axis) +
                                     " into an axis it is not the outermost "
                                     "of, so the shards' lanes would "
                                     "interleave");
      }
      return set(result, {ShardFact::Split, static_cast<int64_t>(g)}, op);
    }
    return success();
  }
  auto expand = cast<tensor::ExpandShapeOp>(op);
  std::optional<int64_t> target;
  if (axis) {
    // getReassociationIndices() returns its groups by value: keep them, or
    // the loop walks a destroyed temporary.
    SmallVector<ReassociationIndices> groups = expand.getReassociationIndices();
    SmallVector<int64_t> nonUnit;
    for (int64_t d : groups[*axis])
      if (resultType.getDimSize(d) != 1)
        nonUnit.push_back(d);
    if (nonUnit.size() != 1)
      return unsupported(op, "spreads split axis " + Twine(*axis) +
                                 " over several axes");
    target = nonUnit.front();
  }
  // The output sizes may name the local batch size, for the split axis only.
  unsigned next = 0;
  for (int64_t d = 0; d < resultType.getRank(); ++d) {
    if (!resultType.isDynamicDim(d))
      continue;
    Value size = expand.getOutputShape()[next++];
    std::optional<ShardFact> fact = lookup(size);
    if (fact && (fact->kind != ShardFact::LocalSize || target != d))
      return unsupported(op,
                         "sizes axis " + Twine(d) + " by " + describe(*fact));
  }
  if (target)
    return set(result, {ShardFact::Split, *target}, op);
  return success();
}

/// A linalg op iterates over the split axis through its indexing maps: the
/// loop dimension it maps to is split, and so is every result axis that
/// loop dimension maps to.
LogicalResult ShardAxes::visitLinalg(Operation *op) {
  auto linalgOp = cast<linalg::LinalgOp>(op);
  std::optional<unsigned> loop;
  for (OpOperand &operand : op->getOpOperands()) {
    std::optional<ShardFact> fact = lookup(operand.get());
    if (!fact)
      continue;
    if (fact->kind != ShardFact::Split)
      return unsupported(op, "reads " + describe(*fact));
    AffineMap map = linalgOp.getMatchingIndexingMap(&operand);
    auto dim = dyn_cast<AffineDimExpr>(map.getResult(fact->axis));
    if (!dim)
      return unsupported(
          op, "indexes split axis " + Twine(fact->axis) + " of operand #" +
                  Twine(operand.getOperandNumber()) + " by an expression");
    if (loop && *loop != dim.getPosition())
      return unsupported(op, "iterates over two different split axes as "
                             "two loop dimensions");
    loop = dim.getPosition();
  }
  if (!loop)
    return success();
  if (linalgOp.getIteratorTypesArray()[*loop] == utils::IteratorType::reduction)
    return unsupported(op, "reduces along an axis split across shards (use "
                           "loom.sum, max, min, any or all, which loom-shard "
                           "joins across shards)");
  bool readsPosition = false;
  op->walk(
      [&](linalg::IndexOp index) { readsPosition |= index.getDim() == *loop; });
  if (readsPosition)
    return unsupported(op, "reads its position along an axis split across "
                           "shards (linalg.index), which is shard-local");
  for (OpResult result : op->getResults()) {
    AffineMap map = linalgOp.getIndexingMapMatchingResult(result);
    std::optional<unsigned> position =
        map.getResultPosition(getAffineDimExpr(*loop, op->getContext()));
    if (!position)
      return unsupported(op, "drops the split loop dimension from result #" +
                                 Twine(result.getResultNumber()));
    if (failed(set(result, {ShardFact::Split, *position}, op)))
      return failure();
  }
  return success();
}

/// Index arithmetic on this shard's lane positions and batch size (a gang's
/// lanes: start + i, clamped to size - 1) gives a position among this
/// shard's lanes, and a comparison of them a plain i1: both shard-local,
/// with nothing to join (an i1 read from a lane is untracked too). On
/// tensors these ops are elementwise.
LogicalResult ShardAxes::visitLanePosition(Operation *op) {
  bool onIndices =
      llvm::all_of(op->getOperandTypes(), [](Type t) { return t.isIndex(); });
  bool tracked = llvm::any_of(op->getOperands(),
                              [&](Value v) { return lookup(v).has_value(); });
  if (!onIndices || !tracked)
    return visitOther(op);
  Value result = op->getResult(0);
  if (result.getType().isIndex())
    return set(result, {ShardFact::LaneIndex}, op);
  // Whether a lane position is among this shard's lanes, or whether this
  // shard has lanes: a shard-local i1, as a lane's value read at a lane
  // index is.
  return success();
}

/// Elementwise ops keep the split axis; any other op that reads a tracked
/// value, or whose regions yield one, has no rule.
LogicalResult ShardAxes::visitOther(Operation *op) {
  bool elementwise = op->hasTrait<OpTrait::Elementwise>() &&
                     llvm::all_of(op->getResultTypes(), [](Type t) {
                       return isa<RankedTensorType>(t);
                     });
  for (Value v : op->getOperands()) {
    std::optional<ShardFact> fact = lookup(v);
    if (!fact)
      continue;
    if (!elementwise || fact->kind != ShardFact::Split)
      return unsupported(op, "reads " + describe(*fact) +
                                 ", and loom-shard has no rule for this op");
    for (Value result : op->getResults())
      if (failed(set(result, *fact, op)))
        return failure();
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      if (Operation *term =
              block.mightHaveTerminator() ? block.getTerminator() : nullptr)
        for (Value v : term->getOperands())
          if (std::optional<ShardFact> fact = lookup(v))
            return unsupported(op, "yields " + describe(*fact) +
                                       " from a region, and loom-shard has "
                                       "no rule for this op");
  return success();
}
