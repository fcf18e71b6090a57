//===- TargetBackend.h - What a backend owns --------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The compiler side of a backend. Compilation is the same for every backend
// up to the end of the Loom pipeline (batching, sharding, loop localization,
// counters); from there a TargetBackend owns three things:
//
//   - the lowering of the module to what the backend loads (CPU: loom-to-llvm);
//   - how the lowered module is loaded and its entry found (CPU: MLIR's
//     ExecutionEngine on ORC, with the runtime's symbols registered);
//   - the loom::Mesh that runs a sharded entry (CPU: a ThreadMesh);
//   - ahead of time, the code it writes instead of loading it (CPU: LLVM IR
//     or an object for a named CPU, with the program's descriptor,
//     loom/Runtime/ProgramABI.h, in it).
//
// The runtime's seam is Mesh/MeshState (loom/Runtime/Mesh.h); this is the
// compiler's. A new backend is a new implementation of this interface and a
// case in createTargetBackend, never a branch inside the compile or call
// code. Internal to LoomCompiler: the public API (loom/Loom.h) exposes no
// MLIR type, and names the backend only by loom::Backend.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_TARGETBACKEND_H
#define LOOM_LIB_COMPILER_TARGETBACKEND_H

#include "loom/Loom.h"
#include "loom/Runtime/ExecutableImpl.h"
#include "loom/Runtime/Mesh.h"

#include <cstdint>
#include <memory>
#include <string>

namespace mlir {
class ModuleOp;
class OpPassManager;
namespace loom {
struct LoomPipelineOptions;
} // namespace loom
} // namespace mlir

namespace loom::detail {

/// A lowered module, loaded and ready to call. Owns whatever keeps the code
/// alive (the CPU backend's JIT); the entry is valid while it lives.
class LoadedModule : public LoadedProgram {
public:
  virtual PackedEntry entry() const = 0;
};

/// What emit() writes.
enum class EmitKind { LLVMIR, Object, PTX };

class TargetBackend {
public:
  virtual ~TargetBackend();

  /// Refuses the options this backend cannot compile, and adjusts the
  /// batching it wants (the GPU backend: target=gpu), before loom-pipeline.
  virtual Status
  configureBatching(const CompileOptions &options, bool aheadOfTime,
                    mlir::loom::LoomPipelineOptions &batching) const {
    return Status::success();
  }

  /// Adds the passes that take a module from the end of the Loom pipeline
  /// to what load() takes, or emit() when `aheadOfTime`.
  virtual void buildLoweringPipeline(mlir::OpPassManager &pm,
                                     const CompileOptions &options,
                                     bool aheadOfTime) const = 0;

  /// The first part of that lowering: to buffers, before anything specific
  /// to how the code runs (`loom-compile --emit=mlir` stops after it).
  virtual void
  buildBufferizationPipeline(mlir::OpPassManager &pm,
                             const CompileOptions &options) const = 0;

  /// Loads the lowered module and looks up `options.entry`. The module's
  /// context must outlive the result.
  virtual Result<std::unique_ptr<LoadedModule>>
  load(mlir::ModuleOp module, const CompileOptions &options) const = 0;

  /// Ahead of time: the lowered module as `kind`, for `options.targetCPU`,
  /// with the entry's packed wrapper and the descriptor of `impl` (what
  /// Executable::load reads back) in it.
  virtual Result<std::string> emit(mlir::ModuleOp module,
                                   const CompileOptions &options,
                                   const Executable::Impl &impl,
                                   EmitKind kind) const = 0;

  /// The mesh that runs an entry sharded over `numShards` shards.
  virtual Result<std::unique_ptr<Mesh>> createMesh(int64_t numShards) const = 0;

  /// The shard count the Loom pipeline shards for: `options.shards` (0: the
  /// program's mesh, or 1), unless the backend knows better. The MPI
  /// backend's JIT takes the job's size. `aheadOfTime`: the code is written
  /// for running elsewhere, not loaded here.
  virtual Result<int> shardCount(const CompileOptions &options,
                                 bool aheadOfTime) const {
    return options.shards;
  }
};

/// The backend `options.backend` names, or an error saying it is not
/// built.
Result<std::unique_ptr<TargetBackend>>
createTargetBackend(const CompileOptions &options);

/// The implementations, one per file.
std::unique_ptr<TargetBackend> createCPUBackend();
std::unique_ptr<TargetBackend> createGPUBackend();
Result<std::unique_ptr<TargetBackend>>
createMPIBackend(const CompileOptions &options);

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_TARGETBACKEND_H
