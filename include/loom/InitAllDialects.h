//===- InitAllDialects.h - Everything Loom registers ------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// One place that lists the dialects, external interface models and passes
// Loom uses, so loom-opt, loom-run, the C++ API and the unit tests see exactly
// the same registry.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_INITALLDIALECTS_H
#define LOOM_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::loom {

/// Loom's dialect and the upstream dialects Loom programs are written in.
void registerLoomDialects(mlir::DialectRegistry &registry);

/// External interface models (bufferization, batching rules, ...) that Loom
/// attaches to upstream ops. Every tool and test calls this with the dialects.
void registerLoomInterfaces(mlir::DialectRegistry &registry);

/// Both of the above.
inline void registerAllLoom(mlir::DialectRegistry &registry) {
  registerLoomDialects(registry);
  registerLoomInterfaces(registry);
}

/// Loom's passes and pipelines, for loom-opt's command line.
void registerLoomPasses();

} // namespace mlir::loom

#endif // LOOM_INITALLDIALECTS_H
