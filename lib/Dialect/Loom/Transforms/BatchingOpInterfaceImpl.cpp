//===- BatchingOpInterfaceImpl.cpp - Batching rules of upstream ops -------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// External BatchingOpInterface models for the upstream ops Loom programs are
// written in, one file per dialect under BatchingModels/. Each rule rewrites
// one op of the scalar function into the batched function, where batched
// values carry the lanes as a new leading axis. Rules that need a lane's own
// index or a lane mask fall back to a loop over lanes in destination-passing
// style, which one-shot bufferization turns into in-place updates.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/Transforms/BatchingOpInterfaceImpl.h"

#include "BatchingModels/BatchingModels.h"

void mlir::loom::registerBatchingOpInterfaceExternalModels(
    DialectRegistry &registry) {
  registerArithBatchingModels(registry);
  registerMathBatchingModels(registry);
  registerTensorBatchingModels(registry);
  registerSCFBatchingModels(registry);
  registerSCFWhileBatchingModel(registry);
  registerFuncBatchingModels(registry);
}
