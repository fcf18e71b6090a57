//===- Limits.h - Limits shared by the compiler and the runtime -*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Plain C++, so that loom-shard, the CPU thread mesh, the API and the tools
// all check against the same numbers: a value one of them accepts is never
// refused by another later on.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_SUPPORT_LIMITS_H
#define LOOM_SUPPORT_LIMITS_H

#include <cstdint>

namespace loom {

/// The most shards a program may be partitioned over. The CPU mesh runs one
/// thread per shard, and more threads than this is a mistake, not a plan.
inline constexpr int32_t kMaxShards = 1024;

} // namespace loom

#endif // LOOM_SUPPORT_LIMITS_H
