//===- CPUBackend.h - Code for this host's CPU ------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The CPU backend: loom-to-llvm, MLIR's ExecutionEngine on ORC (or, ahead of
// time, an object for a named CPU), and a ThreadMesh. Declared here because
// the MPI backend is the same code on another mesh (MPI/MPIBackend.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_COMPILER_CPU_CPUBACKEND_H
#define LOOM_LIB_COMPILER_CPU_CPUBACKEND_H

#include "TargetBackend.h"

namespace loom::detail {

class CPUBackend : public TargetBackend {
public:
  Status
  configureBatching(const CompileOptions &options, bool aheadOfTime,
                    mlir::loom::LoomPipelineOptions &batching) const override;
  void buildLoweringPipeline(mlir::OpPassManager &pm,
                             const CompileOptions &options,
                             bool aheadOfTime) const override;
  void buildBufferizationPipeline(mlir::OpPassManager &pm,
                                  const CompileOptions &options) const override;
  Result<std::unique_ptr<LoadedModule>>
  load(mlir::ModuleOp module, const CompileOptions &options) const override;
  Result<std::string> emit(mlir::ModuleOp module, const CompileOptions &options,
                           const Executable::Impl &impl,
                           EmitKind kind) const override;
  Result<std::unique_ptr<Mesh>> createMesh(int64_t numShards) const override;

  /// Whether the lowering may compute libm functions as glibc's FMA
  /// variants do (loom-libm-to-arith).
  static bool runsGlibcFMAVariants(const CompileOptions &options,
                                   bool aheadOfTime);

protected:
  /// The backend a library's descriptor names (LoomProgram::backend), which
  /// picks the mesh Executable::load gives it.
  virtual const char *descriptorName() const { return "cpu"; }
};

} // namespace loom::detail

#endif // LOOM_LIB_COMPILER_CPU_CPUBACKEND_H
