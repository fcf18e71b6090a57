//===- LowerStridedCopies.cpp - Copies that are not memcpy, as loops ------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Transforms/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Utils/MemRefUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir::loom {
#define GEN_PASS_DEF_LOOMLOWERSTRIDEDCOPIES
#include "loom/Transforms/Passes.h.inc"
} // namespace mlir::loom

using namespace mlir;

/// Whether finalize-memref-to-llvm copies `type` with llvm.memcpy. This is
/// MLIR 19's own test (MemRefCopyOpLowering); a copy it fails becomes a call
/// of memrefCopy, so the two must agree exactly.
static bool lowersToMemcpy(Type type) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && (memref.getLayout().isIdentity() ||
                    (memref.hasStaticShape() && memref.getNumElements() > 0 &&
                     memref::isStaticShapeAndContiguousRowMajor(memref)));
}

namespace {

struct LoomLowerStridedCopies
    : loom::impl::LoomLowerStridedCopiesBase<LoomLowerStridedCopies> {
  void runOnOperation() override {
    getOperation()->walk([](memref::CopyOp copy) {
      Value source = copy.getSource(), target = copy.getTarget();
      if (lowersToMemcpy(source.getType()) && lowersToMemcpy(target.getType()))
        return;
      // An unranked copy has no loops to become; it is left for
      // finalize-memref-to-llvm, and the JIT names memrefCopy if it is
      // ever reached.
      if (!isa<MemRefType>(source.getType()) ||
          !isa<MemRefType>(target.getType()))
        return;
      OpBuilder builder(copy);
      builder.create<linalg::CopyOp>(copy.getLoc(), source, target);
      copy.erase();
    });
  }
};

} // namespace
