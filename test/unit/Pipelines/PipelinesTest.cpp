//===- PipelinesTest.cpp - loom-pipeline takes its passes' options --------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// An option added to loom-vmap, loom-shard, loom-localize-loops or
// loom-count-loop-iterations must come with loom-pipeline too, under the same
// name and with the same default, and reach the pass: these tests fail until
// it does.
//
//===----------------------------------------------------------------------===//

#include "loom/Pipelines/Pipelines.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringMap.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::loom;

namespace {

/// Parses the "{key=value key=value}" that PassOptions print (none of these
/// values has a space, so no value is braced).
llvm::StringMap<std::string> parseOptions(llvm::StringRef text) {
  llvm::StringMap<std::string> options;
  size_t open = text.find('{');
  if (open == llvm::StringRef::npos)
    return options;
  llvm::StringRef body = text.drop_front(open + 1).rtrim().drop_back();
  llvm::SmallVector<llvm::StringRef> pairs;
  body.split(pairs, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (llvm::StringRef pair : pairs) {
    auto [key, value] = pair.split('=');
    options[key] = value.str();
  }
  return options;
}

/// Each pass the pipeline runs, and the options it was built with.
std::vector<std::pair<std::string, llvm::StringMap<std::string>>>
builtPasses(const LoomPipelineOptions &options) {
  OpPassManager pm(ModuleOp::getOperationName());
  buildLoomPipeline(pm, options);
  std::vector<std::pair<std::string, llvm::StringMap<std::string>>> passes;
  for (Pass &pass : pm.getPasses()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    pass.printAsTextualPipeline(os);
    passes.emplace_back(pass.getArgument().str(), parseOptions(text));
  }
  return passes;
}

/// The passes whose options loom-pipeline exposes; the others
/// (loom-scalarize-small-tensors, canonicalize) run as the pipeline fixes.
bool isForwarded(llvm::StringRef pass) {
  return pass == "loom-annotate-batch-axes" || pass == "loom-vmap" ||
         pass == "loom-shard" || pass == "loom-localize-loops" ||
         pass == "loom-count-loop-iterations";
}

/// Every option of a forwarded pass is a pipeline option of the same name,
/// set to the pipeline's value.
void expectForwarded(LoomPipelineOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  options.print(os); // not const in MLIR 19
  llvm::StringMap<std::string> mine = parseOptions(text);
  for (const auto &[pass, passOptions] : builtPasses(options)) {
    if (!isForwarded(pass))
      continue;
    for (const auto &option : passOptions) {
      auto it = mine.find(option.getKey());
      ASSERT_NE(it, mine.end())
          << pass << "'s option '" << option.getKey().str()
          << "' is not an option of loom-pipeline";
      EXPECT_EQ(it->second, option.getValue())
          << pass << "'s option '" << option.getKey().str()
          << "' is not forwarded from loom-pipeline";
    }
  }
}

TEST(LoomPipelineTest, RunsItsPassesInOrder) {
  auto options = LoomPipelineOptions::createFromString("counters=1");
  ASSERT_TRUE(options);
  std::vector<std::string> names;
  for (const auto &pass : builtPasses(*options))
    names.push_back(pass.first);
  EXPECT_EQ(names,
            (std::vector<std::string>{
                "loom-annotate-batch-axes", "loom-scalarize-small-tensors",
                "canonicalize", "loom-vmap", "loom-shard",
                "loom-localize-loops", "loom-count-loop-iterations"}));
  options = LoomPipelineOptions::createFromString("");
  ASSERT_TRUE(options);
  EXPECT_EQ(builtPasses(*options).size(), 6u);
}

// The passes' defaults are the pipeline's.
TEST(LoomPipelineTest, TakesEveryOptionWithItsDefault) {
  LoomPipelineOptions options;
  options.counters = true;
  expectForwarded(options);
}

// No value is left at the pass's default when the pipeline sets another.
TEST(LoomPipelineTest, ForwardsEveryOption) {
  auto options = LoomPipelineOptions::createFromString(
      "divergent=per-lane target=gpu simd-width=4 divergence-per-doubling=0.5 "
      "assumed-batch=16 masked-op-cost=1.5 lane-op-cost=4 gang-op-cost=2.5 "
      "gang-one-pass-op-cost=3.5 batched-lane-op-cost=6 "
      "carried-latency-cost=0.25 shards=3 "
      "loop-sync=local counters=1");
  ASSERT_TRUE(options);
  expectForwarded(*options);
  // Not vacuous: the passes print what was set.
  bool sawVmap = false;
  for (const auto &[pass, passOptions] : builtPasses(*options))
    if (pass == "loom-vmap") {
      sawVmap = true;
      EXPECT_EQ(passOptions.lookup("divergent"), "per-lane");
      EXPECT_EQ(passOptions.lookup("simd-width"), "4");
    }
  EXPECT_TRUE(sawVmap);
}

} // namespace
