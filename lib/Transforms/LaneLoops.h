//===- LaneLoops.h - Which loops LLVM's vectorizers widen -------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The passes that prepare calls for LLVM's vectorizers (loom-libm-to-arith,
// loom-vector-variants) agree on which loops those widen.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_TRANSFORMS_LANELOOPS_H
#define LOOM_LIB_TRANSFORMS_LANELOOPS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Interfaces/LoopLikeInterface.h"

namespace mlir::loom {

inline bool containsLoop(Region &region) {
  return region
      .walk([](LoopLikeOpInterface) { return WalkResult::interrupt(); })
      .wasInterrupted();
}

/// True when `op` is in a loop that LLVM's vectorizers may widen: a counted
/// loop with no loop inside, which carries no float from one iteration to
/// the next (the loops over lanes that Loom's lowering makes; LLVM cannot
/// reorder a float reduction).
inline bool isInVectorizableLoop(Operation *op) {
  auto loop = op->getParentOfType<LoopLikeOpInterface>();
  if (!loop || !isa<scf::ForOp, scf::ParallelOp>(loop.getOperation()))
    return false;
  if (llvm::any_of(loop.getRegionIterArgs(), [](Value carried) {
        return isa<FloatType>(getElementTypeOrSelf(carried.getType()));
      }))
    return false;
  return !containsLoop(loop->getRegion(0));
}

} // namespace mlir::loom

#endif // LOOM_LIB_TRANSFORMS_LANELOOPS_H
