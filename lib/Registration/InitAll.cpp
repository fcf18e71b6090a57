//===- InitAll.cpp - Everything Loom registers ----------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Conversion/Passes.h"
#include "loom/Dialect/Loom/IR/LoomDialect.h"
#include "loom/Dialect/Loom/Transforms/BatchingOpInterfaceImpl.h"
#include "loom/Dialect/Loom/Transforms/Passes.h"
#include "loom/InitAllDialects.h"
#include "loom/Pipelines/Pipelines.h"
#include "loom/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"

void mlir::loom::registerLoomDialects(mlir::DialectRegistry &registry) {
  // Loom programs use func/arith/math/tensor/scf/mesh, and the lowering
  // pipeline passes through bufferization, linalg, memref, vector, cf, gpu
  // and LLVM: registering upstream's whole set keeps every stage parseable
  // (dialects load lazily, so this costs nothing until used).
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  registry.insert<mlir::loom::LoomDialect>();
}

void mlir::loom::registerLoomInterfaces(mlir::DialectRegistry &registry) {
  registerBatchingOpInterfaceExternalModels(registry);
}

void mlir::loom::registerLoomPasses() {
  // Upstream passes too, so loom-opt follows mlir-opt's conventions
  // (-canonicalize, -cse, -one-shot-bufferize, ...).
  mlir::registerAllPasses();
  registerLoomDialectTransformsPasses();
  registerLoomConversionPasses();
  registerLoomTransformsPasses();
  registerLoomPipelines();
}
