//===- ABI.h - What JIT-compiled code calls in the runtime ------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The only functions lowered Loom programs call. A sharded program gets its
// shard's context as an i64 (a pointer to loom::ShardContext, see Mesh.h)
// and passes it to every call: no JIT globals, so one compiled program can
// run on many meshes at once. A C ABI cannot unwind, so a call that cannot
// complete (another shard failed, the mesh was aborted) returns at once and
// says so in its result, and the lowered IR ends its loops on it.
//
// The same entry points serve every backend: a CPU thread mesh implements
// them with a spinning barrier, an MPI mesh with MPI collectives.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_ABI_H
#define LOOM_RUNTIME_ABI_H

#include <cstdint>

/// Reduction kinds, as `mesh::ReductionKind` numbers them where they exist.
enum LoomReduceKind : int32_t {
  LOOM_REDUCE_SUM = 1,
  LOOM_REDUCE_MAX = 2,
  LOOM_REDUCE_MIN = 3,
  LOOM_REDUCE_AND = 6,
  LOOM_REDUCE_OR = 7,
};

extern "C" {

/// All-reduces a predicate over every shard: `kind` is LOOM_REDUCE_OR (any)
/// or LOOM_REDUCE_AND (all); `value` is 0 or 1. Returns the reduced 0 or 1,
/// or -1 when the mesh was aborted (the caller then ends its loop).
int32_t loom_rt_all_reduce_i1(int64_t ctx, int32_t kind, int32_t value);

/// All-reduces an integer over every shard (SUM wraps, MAX/MIN signed).
/// After an abort the result is meaningless and loom_rt_ok() returns 0.
int32_t loom_rt_all_reduce_i32(int64_t ctx, int32_t kind, int32_t value);
int64_t loom_rt_all_reduce_i64(int64_t ctx, int32_t kind, int64_t value);

/// All-reduces a float with MAX or MIN (NaN propagates). Float sums must
/// not use this: see loom_rt_ordered_sum_*.
float loom_rt_all_reduce_f32(int64_t ctx, int32_t kind, float value);
double loom_rt_all_reduce_f64(int64_t ctx, int32_t kind, double value);

/// The sum of every lane's value over all shards, added in global lane
/// order (shard 0's lanes first), so the result has the same bits for any
/// shard count. `values` points to this shard's `count` lane values.
float loom_rt_ordered_sum_f32(int64_t ctx, const float *values, int64_t count);
double loom_rt_ordered_sum_f64(int64_t ctx, const double *values,
                               int64_t count);

/// 1 while the mesh runs normally, 0 once any shard failed or the caller
/// cancelled the call.
int32_t loom_rt_ok(int64_t ctx);

/// Records one iteration of loop `loop` (numbered by the compiler) with
/// `activeLanes` lanes doing useful work, for `loom-run --stats`.
void loom_rt_count_iteration(int64_t ctx, int32_t loop, int64_t activeLanes);

} // extern "C"

#endif // LOOM_RUNTIME_ABI_H
