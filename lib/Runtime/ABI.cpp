//===- ABI.cpp - The C entry points JIT-compiled code calls ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Each entry point does the backend-neutral part (counting, checking its
// arguments) and dispatches to the shard's MeshState. A C ABI cannot unwind
// and has no error channel but the result, so an argument that only a
// compiler bug can produce (an unknown reduction kind, a negative count)
// fails the mesh with a message instead of guessing: the caller then gets
// that message from run(), and every shard stops at its next collective.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/ABI.h"
#include "loom/Runtime/Mesh.h"

#include <fmt/format.h>

#include <ctime>
#include <limits>

using namespace loom;

namespace {

/// Fails the mesh for an unsupported reduction kind; returns false.
bool checkKind(ShardContext &ctx, const char *function, int32_t kind,
               bool supported, const char *expected) {
  if (supported)
    return true;
  ctx.mesh->fail(ctx.shard,
                 fmt::format("{}: unsupported reduction kind {} (expected {})",
                             function, kind, expected));
  return false;
}

/// The CPU time the calling thread has run, in nanoseconds. Variants are
/// timed by it rather than by a wall clock: a shard that waits for a core
/// (other processes, more shards than cores) would otherwise charge the
/// wait to whichever variant it was running. Variants hold no collective,
/// so they never wait for another shard.
int64_t threadCpuNanos() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return int64_t(now.tv_sec) * 1'000'000'000 + now.tv_nsec;
}

bool isIntKind(int32_t kind) {
  return kind == LOOM_REDUCE_SUM || kind == LOOM_REDUCE_MAX ||
         kind == LOOM_REDUCE_MIN || kind == LOOM_REDUCE_AND ||
         kind == LOOM_REDUCE_OR;
}

bool isFloatKind(int32_t kind) {
  return kind == LOOM_REDUCE_MAX || kind == LOOM_REDUCE_MIN;
}

template <typename T>
T orderedSum(int64_t handle, const char *function, const T *values,
             int64_t count) {
  ShardContext &ctx = ShardContext::fromAbiHandle(handle);
  ++ctx.stats.collectives;
  if (count < 0) {
    ctx.mesh->fail(ctx.shard,
                   fmt::format("{}: negative count {}", function, count));
    return std::numeric_limits<T>::quiet_NaN();
  }
  T sum = T(0);
  if (!ctx.mesh->orderedSum(ctx, values, count, sum))
    return std::numeric_limits<T>::quiet_NaN();
  return sum;
}

/// MAX or MIN of a float over every shard, computed in double.
template <typename T>
T allReduceFloat(int64_t handle, const char *name, int32_t kind, T value) {
  ShardContext &ctx = ShardContext::fromAbiHandle(handle);
  ++ctx.stats.collectives;
  if (!checkKind(ctx, name, kind, isFloatKind(kind), "MAX or MIN"))
    return value;
  double reduced = value;
  if (!ctx.mesh->allReduceFloat(ctx, static_cast<LoomReduceKind>(kind),
                                reduced))
    return value;
  return static_cast<T>(reduced);
}

} // namespace

extern "C" {

int32_t loom_rt_all_reduce_i1(int64_t handle, int32_t kind, int32_t value) {
  ShardContext &ctx = ShardContext::fromAbiHandle(handle);
  ++ctx.stats.collectives;
  if (!checkKind(ctx, __func__, kind,
                 kind == LOOM_REDUCE_OR || kind == LOOM_REDUCE_AND,
                 "OR or AND"))
    return -1;
  // Any non-zero value is true, whether the i1 was zero- or sign-extended.
  int64_t reduced = value != 0 ? 1 : 0;
  if (!ctx.mesh->allReduceInt(ctx, static_cast<LoomReduceKind>(kind), reduced))
    return -1;
  return static_cast<int32_t>(reduced);
}

int32_t loom_rt_all_reduce_i32(int64_t handle, int32_t kind, int32_t value) {
  ShardContext &ctx = ShardContext::fromAbiHandle(handle);
  ++ctx.stats.collectives;
  if (!checkKind(ctx, __func__, kind, isIntKind(kind),
                 "SUM, MAX, MIN, AND or OR"))
    return value;
  int64_t reduced = value;
  if (!ctx.mesh->allReduceInt(ctx, static_cast<LoomReduceKind>(kind), reduced))
    return value;
  // Truncation keeps the low 32 bits: the wrapped i32 sum.
  return static_cast<int32_t>(static_cast<uint32_t>(reduced));
}

int64_t loom_rt_all_reduce_i64(int64_t handle, int32_t kind, int64_t value) {
  ShardContext &ctx = ShardContext::fromAbiHandle(handle);
  ++ctx.stats.collectives;
  if (!checkKind(ctx, __func__, kind, isIntKind(kind),
                 "SUM, MAX, MIN, AND or OR"))
    return value;
  int64_t reduced = value;
  if (!ctx.mesh->allReduceInt(ctx, static_cast<LoomReduceKind>(kind), reduced))
    return value;
  return reduced;
}

float loom_rt_all_reduce_f32(int64_t handle, int32_t kind, float value) {
  // f32 -> f64 is exact and MAX/MIN pick an operand, so the way back is
  // exact too.
  return allReduceFloat(handle, __func__, kind, value);
}

double loom_rt_all_reduce_f64(int64_t handle, int32_t kind, double value) {
  return allReduceFloat(handle, __func__, kind, value);
}

float loom_rt_ordered_sum_f32(int64_t handle, const float *values,
                              int64_t count) {
  return orderedSum(handle, __func__, values, count);
}

double loom_rt_ordered_sum_f64(int64_t handle, const double *values,
                               int64_t count) {
  return orderedSum(handle, __func__, values, count);
}

int32_t loom_rt_ok(int64_t handle) {
  return ShardContext::fromAbiHandle(handle).mesh->ok() ? 1 : 0;
}

void loom_rt_count_iteration(int64_t handle, int32_t loop,
                             int64_t activeLanes) {
  if (loop < 0 || loop >= ShardStats::kMaxLoopId)
    return;
  ShardStats &stats = ShardContext::fromAbiHandle(handle).stats;
  // Grows once per new loop id; afterwards two additions.
  if (static_cast<size_t>(loop) >= stats.loops.size())
    stats.loops.resize(static_cast<size_t>(loop) + 1);
  LoopStats &counts = stats.loops[loop];
  ++counts.iterations;
  counts.activeLaneIterations += activeLanes;
}

int32_t loom_rt_variant_begin(int64_t handle, int32_t site, int32_t count) {
  VariantChoices &choices = ShardContext::fromAbiHandle(handle).variants;
  // Once a site has kept a variant, its visits read no clock.
  int64_t now = choices.chosen(site) < 0 ? threadCpuNanos() : 0;
  return choices.begin(site, count, now);
}

void loom_rt_variant_end(int64_t handle, int32_t site) {
  VariantChoices &choices = ShardContext::fromAbiHandle(handle).variants;
  int64_t now = choices.chosen(site) < 0 ? threadCpuNanos() : 0;
  choices.end(site, now);
}

} // extern "C"
