//===- ExecutableImpl.h - The state of an Executable ------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Executable::Impl: what a call needs (the entry, its signature, its mesh,
// the loop table), however the code got there. The compiler fills it in
// (lib/Compiler: the JIT), and so does Executable::load from a library's
// descriptor (lib/Runtime/Load.cpp, ProgramABI.h); the call path
// (lib/Runtime/Call.cpp) reads only this. Internal to Loom, and plain C++:
// the runtime library that loads and calls AOT-compiled programs must not
// need LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_EXECUTABLEIMPL_H
#define LOOM_RUNTIME_EXECUTABLEIMPL_H

#include "loom/Loom.h"
#include "loom/Runtime/CallABI.h"
#include "loom/Runtime/Mesh.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace loom {
namespace detail {

/// The entry's packed wrapper (CallABI.h): a pointer to every argument, then
/// one to the result struct.
using PackedEntry = void (*)(void **);

/// Whatever keeps the compiled code alive: the JIT and its context, or the
/// loaded library. The entry is valid while it lives.
class LoadedProgram {
public:
  virtual ~LoadedProgram();
};

} // namespace detail

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
  std::unique_ptr<detail::LoadedProgram> program;
  detail::PackedEntry entry = nullptr;
  /// Set when the program runs on a mesh: the persistent shard pool, and
  /// per input and output whether axis 0 is split across shards.
  std::unique_ptr<Mesh> mesh;
  std::vector<bool> inputSplit, outputSplit;
  /// Compiled with loop counters; the loops loom-count-loop-iterations
  /// numbered, by id (the module's loom.loops).
  bool countsLoops = false;
  struct LoopSite {
    std::string location;
    bool masked = false;
    /// The lanes each iteration of a masked loop covers when fixed (a
    /// gang's), 0 for the shard's lanes.
    int64_t lanes = 0;
    /// The timed variant the loop is in (a name of `variants`), or empty.
    std::string variant;
  };
  std::vector<LoopSite> loops;
  /// By site: where each loom.variant_begin is and what its two variants
  /// are (the module's loom.variants).
  struct VariantSite {
    std::string location, primary, alternative;
  };
  std::vector<VariantSite> variants;

  /// Builds `defaults` from the inputs' `loom.default`s.
  Status buildDefaults();

  /// Nested, so it may use Executable's private constructor.
  static Executable wrap(std::shared_ptr<const Impl> impl) {
    return Executable(std::move(impl));
  }
};

} // namespace loom

#endif // LOOM_RUNTIME_EXECUTABLEIMPL_H
