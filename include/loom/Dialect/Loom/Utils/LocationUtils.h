//===- LocationUtils.h - Locations as users read them -----------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_UTILS_LOCATIONUTILS_H
#define LOOM_DIALECT_LOOM_UTILS_LOCATIONUTILS_H

#include "mlir/IR/Location.h"

#include <string>

namespace mlir::loom {

/// `file:line:col` for a file location, else the location as MLIR prints
/// it: how remarks and `loom-run --stats` name a loop or an op.
std::string locationString(Location loc);

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_UTILS_LOCATIONUTILS_H
