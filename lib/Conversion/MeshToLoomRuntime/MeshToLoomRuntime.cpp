//===- MeshToLoomRuntime.cpp - Mesh collectives to runtime calls ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/MeshToLoomRuntime/MeshToLoomRuntime.h"
#include "loom/Conversion/LoomRuntimeCommon/RuntimeFunctions.h"
#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/LocationUtils.h"
#include "loom/Dialect/Loom/Utils/ShardUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Mesh/IR/MeshOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::loom {
#define GEN_PASS_DEF_CONVERTMESHTOLOOMRUNTIME
#include "loom/Conversion/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;
using namespace mlir::loom;

namespace {

struct Lowering {
  ModuleOp module;
  SymbolTable symbols;

  explicit Lowering(ModuleOp module) : module(module), symbols(module) {}

  func::FuncOp declare(RuntimeFunction fn) {
    return declareRuntimeFunction(module, symbols, fn);
  }

  /// The enclosing function's shard context.
  FailureOr<Value> context(Operation *op) {
    if (Value ctx = getEnclosingShardContext(op))
      return ctx;
    return op->emitError()
           << "collective outside a function with a shard context (run "
           << "-loom-shard, which adds the loom.context argument)";
  }

  // all_reduce(t) => from_elements(call loom_rt_all_reduce_T(ctx, k, t[i]))
  LogicalResult lowerAllReduce(mesh::AllReduceOp op) {
    auto type = cast<RankedTensorType>(op.getInput().getType());
    Type elem = type.getElementType();
    if (!type.hasStaticShape() || type.getNumElements() > 16)
      return op.emitError() << "all-reduce of " << type
                            << " across shards is not supported (at most 16 "
                            << "elements of static shape)";
    bool isFloat = isa<FloatType>(elem);
    LoomReduceKind kind;
    switch (op.getReduction()) {
    case mesh::ReductionKind::Sum:
      kind = LOOM_REDUCE_SUM;
      break;
    case mesh::ReductionKind::Max:
      kind = LOOM_REDUCE_MAX;
      break;
    case mesh::ReductionKind::Min:
      kind = LOOM_REDUCE_MIN;
      break;
    case mesh::ReductionKind::BitwiseAnd:
      kind = LOOM_REDUCE_AND;
      break;
    case mesh::ReductionKind::BitwiseOr:
      kind = LOOM_REDUCE_OR;
      break;
    default:
      return op.emitError()
             << "reduction " << mesh::stringifyReductionKind(op.getReduction())
             << " across shards is not supported";
    }
    if (isFloat && kind == LOOM_REDUCE_SUM)
      return op.emitError() << "a float sum across shards must add in lane "
                            << "order: loom-shard writes it as a sum over "
                            << "mesh.all_gather";
    RuntimeFunction callee;
    if (elem.isInteger(1))
      callee = RuntimeFunction::AllReduceI1;
    else if (elem.isSignlessInteger(32))
      callee = RuntimeFunction::AllReduceI32;
    else if (elem.isSignlessInteger(64))
      callee = RuntimeFunction::AllReduceI64;
    else if (elem.isF32())
      callee = RuntimeFunction::AllReduceF32;
    else if (elem.isF64())
      callee = RuntimeFunction::AllReduceF64;
    else
      return op.emitError()
             << "all-reduce of " << elem << " across shards is not supported";
    FailureOr<Value> ctx = context(op);
    if (failed(ctx))
      return failure();

    OpBuilder b(op);
    Location loc = op.getLoc();
    Type i32 = b.getI32Type();
    func::FuncOp fn = declare(callee);
    Value kindV = b.create<arith::ConstantIntOp>(loc, kind, 32);
    SmallVector<Value> elements;
    for (int64_t flat = 0; flat < type.getNumElements(); ++flat) {
      SmallVector<Value> index;
      int64_t rest = flat;
      for (int64_t d = type.getRank(); d-- > 0;) {
        index.insert(index.begin(), b.create<arith::ConstantIndexOp>(
                                        loc, rest % type.getDimSize(d)));
        rest /= type.getDimSize(d);
      }
      Value v = b.create<tensor::ExtractOp>(loc, op.getInput(), index);
      // An i1 travels as an i32 0 or 1: the C ABI has no i1.
      if (elem.isInteger(1))
        v = b.create<arith::ExtUIOp>(loc, i32, v);
      Value r = b.create<func::CallOp>(loc, fn, ValueRange{*ctx, kindV, v})
                    .getResult(0);
      // 1 is true; 0 is false, and so is -1, the aborted mesh's answer.
      if (elem.isInteger(1))
        r = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, r,
                                    b.create<arith::ConstantIntOp>(loc, 1, 32));
      elements.push_back(r);
    }
    Value whole = b.create<tensor::FromElementsOp>(loc, type, elements);
    op.getResult().replaceAllUsesWith(whole);
    op.erase();
    return success();
  }

  // sum(all_gather(x) along 0) => call loom_rt_ordered_sum_T(ctx, &x[0], n)
  LogicalResult lowerGatherSum(mesh::AllGatherOp op) {
    auto type = cast<RankedTensorType>(op.getInput().getType());
    Type elem = type.getElementType();
    SmallVector<SumOp> sums;
    for (Operation *user : op->getUsers()) {
      auto sum = dyn_cast<SumOp>(user);
      if (!sum || sum.getAxis() != 0)
        return user->emitError()
               << "a gather across shards is supported only as the input "
               << "of loom.sum along axis 0";
      sums.push_back(sum);
    }
    if (type.getRank() != 1 || !(elem.isF32() || elem.isF64()))
      return op.emitError() << "a float sum across shards is supported for "
                            << "rank-1 f32 and f64 tensors, not " << type;
    FailureOr<Value> ctx = context(op);
    if (failed(ctx))
      return failure();
    OpBuilder b(op);
    Location loc = op.getLoc();
    Type i64 = b.getI64Type();
    func::FuncOp fn = declare(elem.isF32() ? RuntimeFunction::OrderedSumF32
                                           : RuntimeFunction::OrderedSumF64);
    // The runtime reads the lanes through a pointer: the buffer's aligned
    // base plus its offset, in elements. The buffer is taken with any
    // layout (an scf.if whose branches' buffers differ yields one of
    // unknown strides) and read where it is when its stride is 1, as a
    // slice of the lanes has it; otherwise its lanes are copied into one
    // that is. The memref keeps the tensor's shape, static or not:
    // to_memref verifies that one is the other's tensor type.
    auto anyLayout = MemRefType::get(
        type.getShape(), elem,
        StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                               {ShapedType::kDynamic}));
    // read_only: the runtime only reads the lanes, so bufferization need
    // not copy them into a buffer of their own first.
    Value any =
        b.create<bufferization::ToMemrefOp>(loc, anyLayout, op.getInput(),
                                            /*read_only=*/true);
    auto anyMeta = b.create<memref::ExtractStridedMetadataOp>(loc, any);
    Value unit = b.create<arith::CmpIOp>(
        loc, arith::CmpIPredicate::eq, anyMeta.getStrides()[0],
        b.create<arith::ConstantIndexOp>(loc, 1));
    auto contiguous = b.create<scf::IfOp>(
        loc, unit,
        [&](OpBuilder &tb, Location tl) { tb.create<scf::YieldOp>(tl, any); },
        [&](OpBuilder &eb, Location el) {
          SmallVector<Value> sizes;
          if (type.isDynamicDim(0))
            sizes.push_back(anyMeta.getSizes()[0]);
          Value copy = eb.create<memref::AllocOp>(
              el, MemRefType::get(type.getShape(), elem), sizes);
          eb.create<memref::CopyOp>(el, any, copy);
          eb.create<scf::YieldOp>(
              el, ValueRange{eb.create<memref::CastOp>(el, anyLayout, copy)});
        });
    Value mem = contiguous.getResult(0);
    auto meta = b.create<memref::ExtractStridedMetadataOp>(loc, mem);
    Value base = b.create<memref::ExtractAlignedPointerAsIndexOp>(loc, mem);
    Value bytes =
        b.create<arith::ConstantIndexOp>(loc, elem.getIntOrFloatBitWidth() / 8);
    Value addr = b.create<arith::AddIOp>(
        loc, base, b.create<arith::MulIOp>(loc, meta.getOffset(), bytes));
    Value count = meta.getSizes()[0];
    Value addr64 = b.create<arith::IndexCastOp>(loc, i64, addr);
    Value count64 = b.create<arith::IndexCastOp>(loc, i64, count);
    for (SumOp sum : sums) {
      b.setInsertionPoint(sum);
      Value total =
          b.create<func::CallOp>(loc, fn, ValueRange{*ctx, addr64, count64})
              .getResult(0);
      sum.getResult().replaceAllUsesWith(total);
      sum.erase();
    }
    op.erase();
    return success();
  }

  // variant_begin => call loom_rt_variant_begin(ctx, site, 2) != 0
  // variant_end   => call loom_rt_variant_end(ctx, site)
  // Sites are numbered in module order, and the module's loom.variants
  // says where each is and what its variants are, for the runtime to name
  // each shard's choice. Without a shard context nothing could keep a
  // choice across calls: the primary runs.
  void lowerVariants() {
    SmallVector<VariantBeginOp> begins;
    module.walk([&](VariantBeginOp op) { begins.push_back(op); });
    OpBuilder b(module.getContext());
    SmallVector<Attribute> table;
    for (auto [site, begin] : llvm::enumerate(begins)) {
      Location loc = begin.getLoc();
      StringAttr primary = b.getStringAttr("primary"),
                 secondary = b.getStringAttr("alternative");
      if (std::optional<ArrayAttr> names = begin.getNames()) {
        primary = cast<StringAttr>((*names)[0]);
        secondary = cast<StringAttr>((*names)[1]);
      }
      table.push_back(b.getDictionaryAttr(
          {b.getNamedAttr("loc", b.getStringAttr(locationString(loc))),
           b.getNamedAttr("primary", primary),
           b.getNamedAttr("alternative", secondary)}));
      auto end = cast<VariantEndOp>(
          *llvm::find_if(begin->getUsers(),
                         [](Operation *op) { return isa<VariantEndOp>(op); }));
      b.setInsertionPoint(begin);
      Value ctx = getEnclosingShardContext(begin);
      Value alternative;
      if (ctx) {
        Value id = b.create<arith::ConstantIntOp>(loc, site, 32);
        Value count = b.create<arith::ConstantIntOp>(loc, 2, 32);
        Value chosen =
            b.create<func::CallOp>(loc, declare(RuntimeFunction::VariantBegin),
                                   ValueRange{ctx, id, count})
                .getResult(0);
        Value zero = b.create<arith::ConstantIntOp>(loc, 0, 32);
        alternative = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne,
                                              chosen, zero);
        b.setInsertionPoint(end);
        b.create<func::CallOp>(end.getLoc(),
                               declare(RuntimeFunction::VariantEnd),
                               ValueRange{ctx, id});
      } else {
        alternative = b.create<arith::ConstantIntOp>(loc, 0, 1);
      }
      end.erase();
      begin.getAlternative().replaceAllUsesWith(alternative);
      begin.erase();
    }
    if (table.empty())
      module->removeAttr(LoomDialect::kVariantsAttrName);
    else
      module->setAttr(LoomDialect::kVariantsAttrName, b.getArrayAttr(table));
  }
};

struct ConvertMeshToLoomRuntime
    : mlir::loom::impl::ConvertMeshToLoomRuntimeBase<ConvertMeshToLoomRuntime> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Lowering lowering(module);
    SmallVector<Operation *> collectives;
    module.walk([&](Operation *op) {
      if (isShardCollective(op))
        collectives.push_back(op);
    });
    for (Operation *op : collectives) {
      LogicalResult r =
          isa<mesh::AllReduceOp>(op)
              ? lowering.lowerAllReduce(cast<mesh::AllReduceOp>(op))
              : lowering.lowerGatherSum(cast<mesh::AllGatherOp>(op));
      if (failed(r))
        return signalPassFailure();
    }
    lowering.lowerVariants();
    // The mesh itself has no code: the runtime is the mesh now.
    for (auto mesh : llvm::make_early_inc_range(module.getOps<mesh::MeshOp>()))
      mesh.erase();
  }
};

} // namespace
