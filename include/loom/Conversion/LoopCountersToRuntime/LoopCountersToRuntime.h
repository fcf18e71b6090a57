//===- LoopCountersToRuntime.h - Loop counters for --stats ------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_LOOPCOUNTERSTORUNTIME_LOOPCOUNTERSTORUNTIME_H
#define LOOM_CONVERSION_LOOPCOUNTERSTORUNTIME_LOOPCOUNTERSTORUNTIME_H

#include "mlir/Pass/Pass.h"

namespace mlir::loom {

#define GEN_PASS_DECL_LOOMCOUNTLOOPITERATIONS
#include "loom/Conversion/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_CONVERSION_LOOPCOUNTERSTORUNTIME_LOOPCOUNTERSTORUNTIME_H
