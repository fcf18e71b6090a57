//===- ExecutableImpl.h - The compiled state of an Executable ---*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Executable::Impl, shared by the three files that build and use it:
// Compile.cpp (parse, the Loom pipeline, the backend's lowering and load),
// Signature.cpp (what the entry takes and returns, read before lowering
// erases it) and Call.cpp (checking inputs and calling, on a mesh or not).
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_EXECUTABLEIMPL_H
#define LOOM_LIB_COMPILER_EXECUTABLEIMPL_H

#include "CallABI.h"
#include "TargetBackend.h"

#include "loom/Loom.h"
#include "loom/Runtime/Mesh.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace loom {

struct Executable::Impl {
  std::vector<ValueInfo> inputs, outputs;
  /// Groups of (input, axis) whose dynamic sizes must agree: the batch axes
  /// of the operands one loom.vmap maps over together.
  std::vector<std::vector<std::pair<size_t, size_t>>> batchGroups;
  /// Per input, its `loom.default` as a scalar buffer, built once: every
  /// call may pass the same one, since compiled code never writes a scalar
  /// argument.
  std::vector<std::optional<HostBuffer>> defaults;
  detail::ResultLayout resultLayout;
  CompileTimes times;
  // The context must outlive the loaded module's use of it; keep both.
  std::unique_ptr<mlir::MLIRContext> context;
  std::unique_ptr<detail::LoadedModule> program;
  detail::PackedEntry entry = nullptr;
  /// Set when the program runs on a mesh: the persistent shard pool, and
  /// per input and output whether axis 0 is split across shards.
  std::unique_ptr<Mesh> mesh;
  std::vector<bool> inputSplit, outputSplit;
  /// The loops loom-count-loop-iterations numbered, by id.
  std::vector<std::pair<std::string, bool>> loops;

  /// Nested, so it may use Executable's private constructor.
  static Executable wrap(std::shared_ptr<const Impl> impl) {
    return Executable(std::move(impl));
  }
};

namespace detail {

/// Reads the entry's signature, names and defaults before lowering erases
/// them, and marks its tensor arguments read-only so bufferization never
/// writes into the caller's buffers.
Status describeEntry(mlir::func::FuncOp func, Executable::Impl &impl);

/// The `loom.default` of a scalar argument, as a buffer.
Result<HostBuffer> defaultBuffer(const ValueInfo &info);

/// After loom-shard: an entry that took a `loom.context` argument runs on a
/// mesh of the module's size, which `backend` creates; its
/// `loom.batch_axis` arguments and results are split and joined along
/// axis 0.
Status describeMesh(mlir::ModuleOp module, const std::string &name,
                    Executable::Impl &impl, const TargetBackend &backend);

} // namespace detail
} // namespace loom

#endif // LOOM_LIB_COMPILER_EXECUTABLEIMPL_H
