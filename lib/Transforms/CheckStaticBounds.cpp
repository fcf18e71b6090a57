//===- CheckStaticBounds.cpp - Constant indices out of bounds -------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"
#include "loom/Transforms/StaticBounds.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cstdlib>
#include <limits>
#include <string>

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMCHECKSTATICBOUNDS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

namespace {

/// "dimension D of size S" (or "of dynamic size").
std::string describeDim(int64_t d, int64_t dim) {
  std::string s = "dimension " + std::to_string(d);
  if (ShapedType::isDynamic(dim))
    return s + " of dynamic size";
  return s + " of size " + std::to_string(dim);
}

/// The value of `v` where it is a constant, or arith on constants (an
/// index_cast of an i64 constant, a sum of two): what canonicalization would
/// fold it to, without changing the IR.
std::optional<APInt> constantValue(Value v, unsigned depth = 8) {
  APInt value;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value;
  Operation *def = v.getDefiningOp();
  if (!def || depth == 0 || def->getNumResults() != 1 ||
      !isa<arith::ArithDialect>(def->getDialect()))
    return std::nullopt;
  SmallVector<Attribute> operands;
  for (Value operand : def->getOperands()) {
    std::optional<APInt> c = constantValue(operand, depth - 1);
    if (!c)
      return std::nullopt;
    operands.push_back(IntegerAttr::get(operand.getType(), *c));
  }
  // With every operand constant, arith folds to an attribute (never in
  // place); anything else is left alone.
  SmallVector<OpFoldResult> folded;
  if (failed(def->fold(operands, folded)) || folded.size() != 1)
    return std::nullopt;
  auto attr = dyn_cast_if_present<IntegerAttr>(
      dyn_cast_if_present<Attribute>(folded.front()));
  if (!attr)
    return std::nullopt;
  return attr.getValue();
}

/// tensor.extract / tensor.insert: each constant index against its dim.
LogicalResult checkIndices(Operation *op, RankedTensorType type,
                           ValueRange indices) {
  for (auto [d, index] : llvm::enumerate(indices)) {
    std::optional<APInt> value = constantValue(index);
    if (!value)
      continue;
    // Indices are `index`, whose values are 64 bits wide: an i64 2^63 cast
    // to index is negative, as the lowering will use it.
    int64_t v = value->getSExtValue();
    int64_t dim = type.getDimSize(d);
    if (loom::isIndexInBounds(v, dim))
      continue;
    return op->emitOpError()
           << "index " << v << " is out of bounds for " << describeDim(d, dim);
  }
  return success();
}

/// A static slice of `shape` (the source of an extract_slice, the
/// destination of an insert_slice): reports the first dimension it leaves.
LogicalResult checkSlice(OffsetSizeAndStrideOpInterface op,
                         ArrayRef<int64_t> shape) {
  ArrayRef<int64_t> offsets = op.getStaticOffsets();
  ArrayRef<int64_t> sizes = op.getStaticSizes();
  ArrayRef<int64_t> strides = op.getStaticStrides();
  // A slice with no elements touches nothing, wherever it starts.
  if (llvm::is_contained(sizes, 0))
    return success();
  for (size_t d = 0; d < shape.size(); ++d) {
    int64_t offset = offsets[d], size = sizes[d], stride = strides[d];
    // A dynamic size may be 0.
    if (ShapedType::isDynamic(size) || size <= 0 ||
        ShapedType::isDynamic(stride))
      continue;
    std::string dim = describeDim(d, shape[d]);
    if (ShapedType::isDynamic(offset)) {
      // The first and last index are |span| apart whatever the offset is.
      std::optional<int64_t> span = loom::sliceSpan(size, stride);
      if (ShapedType::isDynamic(shape[d]) ||
          (span && *span != std::numeric_limits<int64_t>::min() &&
           std::abs(*span) < shape[d]))
        continue;
      return op->emitOpError()
             << "slice of size " << size << " and stride " << stride
             << " does not fit in " << dim << " at any offset";
    }
    if (!loom::isIndexInBounds(offset, shape[d]))
      return op->emitOpError()
             << "slice offset " << offset << " is out of bounds for " << dim;
    std::optional<int64_t> last = loom::sliceLastIndex(offset, size, stride);
    if (last && loom::isIndexInBounds(*last, shape[d]))
      continue;
    InFlightDiagnostic diag = op->emitOpError()
                              << "slice's last index " << offset << " + ("
                              << size << " - 1) * " << stride;
    if (last)
      diag << " = " << *last;
    else
      diag << " overflows int64 and";
    return diag << " is out of bounds for " << dim;
  }
  return success();
}

LogicalResult check(Operation *op) {
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([](tensor::ExtractOp op) {
        return checkIndices(op, op.getTensor().getType(), op.getIndices());
      })
      .Case([](tensor::InsertOp op) {
        return checkIndices(op, op.getDest().getType(), op.getIndices());
      })
      .Case([](tensor::ExtractSliceOp op) {
        return checkSlice(op, op.getSourceType().getShape());
      })
      .Case([](tensor::InsertSliceOp op) {
        return checkSlice(op, op.getDestType().getShape());
      })
      .Case([](tensor::ParallelInsertSliceOp op) {
        return checkSlice(op, op.getDestType().getShape());
      })
      .Default([](Operation *) { return success(); });
}

struct LoomCheckStaticBounds
    : loom::impl::LoomCheckStaticBoundsBase<LoomCheckStaticBounds> {
  void runOnOperation() override {
    // Every op is reported, not only the first, as a verifier would.
    bool failed = false;
    getOperation()->walk([&](Operation *op) {
      if (mlir::failed(check(op)))
        failed = true;
    });
    if (failed)
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
