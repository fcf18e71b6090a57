//===- WidenBoolBuffers.cpp - Buffers of i1 stored as bytes ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMWIDENBOOLBUFFERS
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

/// True when every user of `buffer` reads or writes one element, or only
/// its shape or its lifetime: uses whose element type may change.
static bool isOnlyAccessed(Value buffer) {
  return llvm::all_of(buffer.getUses(), [](OpOperand &use) {
    Operation *user = use.getOwner();
    if (auto store = dyn_cast<memref::StoreOp>(user))
      return use.get() == store.getMemRef();
    return isa<memref::LoadOp, memref::DimOp, memref::DeallocOp>(user);
  });
}

/// i1 => i8 in `buffer`'s type, and in its loads and stores.
static void widen(Value buffer) {
  auto type = cast<MemRefType>(buffer.getType());
  MLIRContext *ctx = buffer.getContext();
  Type byte = IntegerType::get(ctx, 8);
  buffer.setType(MemRefType::Builder(type).setElementType(byte));
  OpBuilder builder(ctx);
  for (Operation *user : llvm::make_early_inc_range(buffer.getUsers())) {
    if (auto load = dyn_cast<memref::LoadOp>(user)) {
      builder.setInsertionPointAfter(load);
      auto bit = builder.create<arith::TruncIOp>(load.getLoc(),
                                                 builder.getI1Type(), load);
      load.getResult().replaceAllUsesExcept(bit, bit);
      load.getResult().setType(byte);
    } else if (auto store = dyn_cast<memref::StoreOp>(user)) {
      builder.setInsertionPoint(store);
      store.getValueMutable().assign(builder.create<arith::ExtUIOp>(
          store.getLoc(), byte, store.getValueToStore()));
    }
  }
}

namespace {

struct LoomWidenBoolBuffers
    : loom::impl::LoomWidenBoolBuffersBase<LoomWidenBoolBuffers> {
  void runOnOperation() override {
    SmallVector<Value> buffers;
    getOperation()->walk([&](Operation *op) {
      if (!isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      Value buffer = op->getResult(0);
      auto type = cast<MemRefType>(buffer.getType());
      if (type.getElementType().isInteger(1) && isOnlyAccessed(buffer))
        buffers.push_back(buffer);
    });
    for (Value buffer : buffers)
      widen(buffer);
  }
};

} // namespace
