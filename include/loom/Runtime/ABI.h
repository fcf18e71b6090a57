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

namespace loom {

/// Loom's runtime entry points, one per line of RuntimeFunctions.def.
enum class RuntimeFunction {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS) ID,
#include "loom/Runtime/RuntimeFunctions.def"
};

/// Every entry point, in the list's order.
inline constexpr RuntimeFunction kRuntimeFunctions[] = {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS) RuntimeFunction::ID,
#include "loom/Runtime/RuntimeFunctions.def"
};

/// The C symbol of `fn`.
constexpr const char *getRuntimeFunctionName(RuntimeFunction fn) {
  switch (fn) {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS)                         \
  case RuntimeFunction::ID:                                                    \
    return #NAME;
#include "loom/Runtime/RuntimeFunctions.def"
  }
  return "";
}

} // namespace loom

/// Reduction kinds, as `mesh::ReductionKind` numbers them where they exist.
enum LoomReduceKind : int32_t {
  LOOM_REDUCE_SUM = 1,
  LOOM_REDUCE_MAX = 2,
  LOOM_REDUCE_MIN = 3,
  LOOM_REDUCE_AND = 6,
  LOOM_REDUCE_OR = 7,
};

/// The entry points, declared from their one list (with their contracts).
extern "C" {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS) RESULT NAME PARAMETERS;
#include "loom/Runtime/RuntimeFunctions.def"
} // extern "C"

#endif // LOOM_RUNTIME_ABI_H
