//===- MeshToLoomRuntime.h - Mesh collectives to runtime calls --*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_CONVERSION_MESHTOLOOMRUNTIME_MESHTOLOOMRUNTIME_H
#define LOOM_CONVERSION_MESHTOLOOMRUNTIME_MESHTOLOOMRUNTIME_H

#include "mlir/Pass/Pass.h"

namespace mlir::loom {

#define GEN_PASS_DECL_CONVERTMESHTOLOOMRUNTIME
#include "loom/Conversion/Passes.h.inc"

} // namespace mlir::loom

#endif // LOOM_CONVERSION_MESHTOLOOMRUNTIME_MESHTOLOOMRUNTIME_H
