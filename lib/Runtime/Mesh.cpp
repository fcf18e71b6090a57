//===- Mesh.cpp - Lane splits, counters and the backend-neutral mesh state ===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// What every backend shares: how lanes are split, what a reduction means,
// and how an error aborts a mesh. The CPU backend is in ThreadMesh.cpp, the
// C entry points in ABI.cpp.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Mesh.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace loom {

LaneRange splitLanes(int64_t batch, int32_t numShards, int32_t shard) {
  int64_t base = batch / numShards;
  int64_t extra = batch % numShards;
  LaneRange range;
  range.begin = shard * base + std::min<int64_t>(shard, extra);
  range.end = range.begin + base + (shard < extra ? 1 : 0);
  return range;
}

size_t MeshStats::numLoops() const {
  size_t loops = 0;
  for (const ShardStats &shard : shards)
    loops = std::max(loops, shard.loops.size());
  return loops;
}

LoopStats MeshStats::loopTotal(int32_t loop) const {
  LoopStats total;
  if (loop < 0)
    return total;
  for (const ShardStats &shard : shards) {
    if (static_cast<size_t>(loop) >= shard.loops.size())
      continue;
    total.iterations += shard.loops[loop].iterations;
    total.activeLaneIterations += shard.loops[loop].activeLaneIterations;
  }
  return total;
}

bool reduceInt(LoomReduceKind kind, int64_t lhs, int64_t rhs, int64_t &result) {
  switch (kind) {
  case LOOM_REDUCE_SUM:
    // Unsigned arithmetic wraps without undefined behaviour; the low 32 bits
    // of the wrapped 64-bit sum of sign-extended i32s are the wrapped i32
    // sum.
    result = static_cast<int64_t>(static_cast<uint64_t>(lhs) +
                                  static_cast<uint64_t>(rhs));
    return true;
  case LOOM_REDUCE_MAX:
    result = std::max(lhs, rhs);
    return true;
  case LOOM_REDUCE_MIN:
    result = std::min(lhs, rhs);
    return true;
  case LOOM_REDUCE_AND:
    result = lhs & rhs;
    return true;
  case LOOM_REDUCE_OR:
    result = lhs | rhs;
    return true;
  }
  return false;
}

bool reduceFloat(LoomReduceKind kind, double lhs, double rhs, double &result) {
  if (kind != LOOM_REDUCE_MAX && kind != LOOM_REDUCE_MIN)
    return false;
  if (std::isnan(lhs) || std::isnan(rhs)) {
    result = std::isnan(lhs) ? lhs : rhs;
    return true;
  }
  bool isMax = kind == LOOM_REDUCE_MAX;
  if (lhs == rhs) {
    // Equal but for the sign of zero: +0.0 is the larger.
    bool lhsNegative = std::signbit(lhs);
    result = (lhsNegative == isMax) ? rhs : lhs;
    return true;
  }
  result = (lhs > rhs) == isMax ? lhs : rhs;
  return true;
}

MeshState::~MeshState() = default;

void MeshState::fail(int32_t shard, std::string_view message) {
  {
    std::lock_guard<std::mutex> lock(errorMutex_);
    if (!hasError_) {
      hasError_ = true;
      // With one shard the prefix says nothing.
      error_ = shard >= 0 && numShards_ > 1
                   ? fmt::format("{} {}: {}", shardWord_, shard, message)
                   : std::string(message);
    }
  }
  // The error is recorded before any shard can see the abort, so the
  // failures the abort causes in other shards (a body that sees its
  // collective fail and returns "aborted") never displace the cause.
  aborted_.store(true, std::memory_order_release);
  releaseWaiters();
}

Status MeshState::status() const {
  std::lock_guard<std::mutex> lock(errorMutex_);
  if (hasError_)
    return Status::error(error_);
  // An abort always records an error first; this is a safety net.
  if (aborted_.load(std::memory_order_acquire))
    return Status::error("the mesh was aborted");
  return Status::success();
}

void MeshState::reset() {
  {
    std::lock_guard<std::mutex> lock(errorMutex_);
    hasError_ = false;
    error_.clear();
  }
  aborted_.store(false, std::memory_order_release);
  resetCollectives();
}

Mesh::~Mesh() = default;
MeshTransport::~MeshTransport() = default;

} // namespace loom
