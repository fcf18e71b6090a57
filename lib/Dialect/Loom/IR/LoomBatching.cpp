//===- LoomBatching.cpp - Batching rules of Loom ops ----------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// BatchingOpInterface for Loom's own ops. Reductions batch by shifting their
// axis past the lane axis. Random ops take one key, not an array of keys, so
// a batched key is handled by the generic per-lane rule: one scalar op per
// lane, which keeps the dialect to single-key ops and keeps every lane
// bit-identical to the unbatched program.
//
//===----------------------------------------------------------------------===//

#include "loom/Dialect/Loom/IR/LoomOps.h"
#include "loom/Dialect/Loom/Utils/BatchingUtils.h"

using namespace mlir;
using namespace mlir::loom;

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

// vmap(reduce(x) along a) => reduce(x') along a + 1
template <typename ReduceOp>
static LogicalResult batchReduce(ReduceOp op, BatchingContext &context,
                                 OpBuilder &builder) {
  Value input = context.lookupBatched(builder, op.getLoc(), op.getInput());
  int64_t axis = op.getAxis() + 1;
  Type resultType =
      ReduceOp::inferResultType(cast<RankedTensorType>(input.getType()), axis);
  auto batched = builder.create<ReduceOp>(op.getLoc(), resultType, input,
                                          builder.getI64IntegerAttr(axis));
  context.map(op.getResult(), batched.getResult());
  return success();
}

#define LOOM_REDUCE_BATCHING(OP)                                               \
  LogicalResult OP::batch(BatchingContext &context, OpBuilder &builder) {      \
    return batchReduce(*this, context, builder);                               \
  }
LOOM_REDUCE_BATCHING(AnyOp)
LOOM_REDUCE_BATCHING(AllOp)
LOOM_REDUCE_BATCHING(SumOp)
LOOM_REDUCE_BATCHING(MaxOp)
LOOM_REDUCE_BATCHING(MinOp)
#undef LOOM_REDUCE_BATCHING

//===----------------------------------------------------------------------===//
// Random numbers
//===----------------------------------------------------------------------===//

// vmap(random(k, ...)) => for b: r[b] = random(k[b], ...)
#define LOOM_RANDOM_BATCHING(OP)                                               \
  LogicalResult OP::batch(BatchingContext &context, OpBuilder &builder) {      \
    return batchPerLane(context, builder, getOperation(),                      \
                        /*skipInactive=*/false);                               \
  }
LOOM_RANDOM_BATCHING(RandomKeyOp)
LOOM_RANDOM_BATCHING(RandomSplitOp)
LOOM_RANDOM_BATCHING(RandomFoldInOp)
LOOM_RANDOM_BATCHING(RandomBitsOp)
LOOM_RANDOM_BATCHING(RandomUniformOp)
LOOM_RANDOM_BATCHING(RandomNormalOp)
LOOM_RANDOM_BATCHING(RandomRandIntOp)
#undef LOOM_RANDOM_BATCHING
