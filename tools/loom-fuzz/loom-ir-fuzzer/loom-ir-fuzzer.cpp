//===- loom-ir-fuzzer.cpp - libFuzzer target: parse, verify, lower --------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Feeds mutated IR through what loom-opt and the embedded API do before code
// generation: parse, verify, then loom-annotate-batch-axes, loom-vmap,
// loom-shard, loom-localize-loops and loom-bufferize, with the strategy,
// shard count and loop sync picked from a hash of the input (so an input
// always takes the same path and a crash reproduces). Nothing is compiled to
// machine code or run: a program that loops forever at run time is not a
// finding here, a pass that loops forever is (libFuzzer's -timeout).
//
// Every diagnostic is swallowed: a located error is the right answer to bad
// IR. What this looks for is a crash, a sanitizer report, a fatal error or a
// hang.
//
// Byte mutations rarely keep IR parseable, so half the mutations work on
// whole lines instead: swap two, move one, copy one, drop one. Those are the
// edits that reach use-before-definition, misplaced terminators and
// duplicate names (the hand-found crashes were line swaps).
//
//===----------------------------------------------------------------------===//

#include "loom/InitAllDialects.h"
#include "loom/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace mlir;

static DialectRegistry *registry;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  // Dialect registration fills global tables: once per process.
  registry = new DialectRegistry();
  mlir::loom::registerAllLoom(*registry);
  return 0;
}

/// The pipeline an input runs: every combination loom-run can ask for,
/// built as the API builds it.
static void buildPipelineFor(llvm::StringRef text, OpPassManager &pm) {
  static const ::loom::DivergentPolicy kDivergent[] = {
      ::loom::DivergentPolicy::Auto, ::loom::DivergentPolicy::Masked,
      ::loom::DivergentPolicy::PerLane};
  static const ::loom::LoopSyncPolicy kLoopSync[] = {
      ::loom::LoopSyncPolicy::Auto, ::loom::LoopSyncPolicy::Global,
      ::loom::LoopSyncPolicy::Local};
  static const int kShards[] = {1, 2, 3, 4};
  uint64_t h = llvm::hash_value(text);
  mlir::loom::LoomPipelineOptions options;
  options.divergent = kDivergent[h % 3];
  options.shards = kShards[(h / 3) % 4];
  options.loopSync = kLoopSync[(h / 12) % 3];
  mlir::loom::buildLoomPipeline(pm, options);
  mlir::loom::buildLoomBufferizePipeline(pm, mlir::loom::LoomToLLVMOptions());
}

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::minstd_rand rng(seed);
  std::vector<std::string> lines;
  for (size_t pos = 0; pos < size;) {
    const void *nl = std::memchr(data + pos, '\n', size - pos);
    size_t end = nl ? static_cast<const uint8_t *>(nl) - data + 1 : size;
    lines.emplace_back(reinterpret_cast<const char *>(data) + pos, end - pos);
    pos = end;
  }
  if (lines.size() < 2 || rng() % 2)
    return LLVMFuzzerMutate(data, size, maxSize);
  size_t i = rng() % lines.size(), j = rng() % lines.size();
  switch (rng() % 4) {
  case 0:
    std::swap(lines[i], lines[j]);
    break;
  case 1: {
    std::string line = std::move(lines[i]);
    lines.erase(lines.begin() + i);
    lines.insert(lines.begin() + std::min(j, lines.size()), std::move(line));
    break;
  }
  case 2:
    lines.insert(lines.begin() + j, lines[i]);
    break;
  default:
    lines.erase(lines.begin() + i);
    break;
  }
  std::string out;
  for (const std::string &line : lines) {
    out += line;
    // The last line may have had no newline; one that moved needs one.
    if (out.back() != '\n')
      out += '\n';
  }
  if (out.size() > maxSize)
    return LLVMFuzzerMutate(data, size, maxSize);
  std::memcpy(data, out.data(), out.size());
  return out.size();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  // A fresh context per input: nothing an input uniques or loads survives
  // into the next one, so a crash reproduces from its input alone. One
  // thread, so that a report has one stack and runs are deterministic.
  MLIRContext context(*registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler swallow(&context,
                                  [](Diagnostic &) { return success(); });

  // The lexer relies on a terminating NUL: parse a copy that has one.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.mlir"), llvm::SMLoc());
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return 0;

  PassManager pm(&context);
  buildPipelineFor(text, pm);
  (void)pm.run(*module);
  return 0;
}
