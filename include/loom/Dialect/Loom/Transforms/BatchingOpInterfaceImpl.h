//===- BatchingOpInterfaceImpl.h - Upstream batching rules ------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_DIALECT_LOOM_TRANSFORMS_BATCHINGOPINTERFACEIMPL_H
#define LOOM_DIALECT_LOOM_TRANSFORMS_BATCHINGOPINTERFACEIMPL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::loom {

/// Attaches BatchingOpInterface to the upstream ops Loom programs use: every
/// elementwise arith and math op, tensor element and slice ops, scf.while /
/// scf.for / scf.if, and func.call.
void registerBatchingOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace mlir::loom

#endif // LOOM_DIALECT_LOOM_TRANSFORMS_BATCHINGOPINTERFACEIMPL_H
