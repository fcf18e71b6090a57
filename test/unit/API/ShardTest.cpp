//===- ShardTest.cpp - Sharded results equal single-shard results ---------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Sharding must not change a single bit of any result. Each program (the
// seed's three and the vmap issue's divergent ones) is compiled once per
// variant, shards in {1, 2, 3, 10} x loop-sync x divergent, and called on
// several batch sizes; every output is compared byte for byte with the same
// call compiled with shards=1 and every strategy on auto.
//
// Through the API, not loom-run: one process compiles every variant of a
// program, and a compiled variant is called on every batch size, which is
// several times faster than a loom-run process per call. Batch sizes include
// uneven splits (7 lanes on 2 and 3 shards), more shards than lanes (7 on
// 10: three shards are empty) and a single lane.
//
// Also: a loop that really couples lanes (a float sum across the batch
// inside it) gives identical bits for every shard count and stays global
// under auto, loop-sync=local on it is refused, and the bad shard options
// and a batch axis other than 0 are errors the API returns.
//
//===----------------------------------------------------------------------===//

#include "ApiTestUtils.h"
#include "loom/Support/Limits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace loom;
using namespace loom::test;

namespace {

/// Deterministic inputs: a small linear congruential generator, so that the
/// values do not depend on the standard library's distributions.
class Lcg {
public:
  explicit Lcg(uint32_t seed) : state(seed) {}
  uint32_t next() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  }
  float uniform(float lo, float hi) {
    return lo + (hi - lo) * static_cast<float>(next() % 65536) / 65536.0f;
  }
  int32_t integer(int32_t lo, int32_t hi) {
    return lo + static_cast<int32_t>(next() % static_cast<uint32_t>(hi - lo));
  }

private:
  uint32_t state;
};

HostBuffer floats(std::vector<int64_t> shape, Lcg &rng, float lo, float hi) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  std::vector<float> values;
  for (int64_t i = 0; i < n; ++i)
    values.push_back(rng.uniform(lo, hi));
  return owned<float>(DType::F32, std::move(shape), values);
}

HostBuffer ints(int64_t batch, Lcg &rng, int32_t lo, int32_t hi) {
  std::vector<int32_t> values;
  for (int64_t i = 0; i < batch; ++i)
    values.push_back(rng.integer(lo, hi));
  return owned<int32_t>(DType::I32, {batch}, values);
}

/// Lanes 0 .. batch-1 of jax.random.split(PRNGKey(seed), count).
HostBuffer keys(int32_t seed, size_t count, int64_t batch) {
  std::vector<uint32_t> words =
      threefry::split(threefry::prngKey(seed), count, /*partitionable=*/false);
  words.resize(2 * batch);
  return owned<uint32_t>(DType::U32, {batch, 2}, words);
}

HostBuffer splat(int64_t batch, float value) {
  return owned<float>(DType::F32, {batch, 1}, std::vector<float>(batch, value));
}

/// One program of the matrix: its file, its entry, and its named inputs for
/// a batch size.
struct Program {
  std::string name;
  std::string path;
  std::string entry;
  std::vector<int64_t> batches;
  std::function<std::map<std::string, HostBuffer>(int64_t)> inputs;
};

std::string divergentPath() {
  return std::string(LOOM_SOURCE_DIR) + "/test/Integration/vmap/Inputs/" +
         "divergent.mlir";
}

std::vector<Program> programs() {
  std::vector<Program> all;
  // The seed programs, configured as in golden.md.
  all.push_back({"Mwe",
                 examplePath("mwe/while_of_while.mlir"),
                 "main",
                 {30, 7, 1},
                 [](int64_t b) {
                   std::map<std::string, HostBuffer> in;
                   in["inits"] = splat(b, 0.1f);
                   in["keys"] = keys(0, 30, b);
                   return in;
                 }});
  // Per-lane initial values, so that lanes take different step counts.
  all.push_back(
      {"Ode", examplePath("diffrax/ode.mlir"), "main", {7, 1}, [](int64_t b) {
         Lcg rng(11);
         std::map<std::string, HostBuffer> in;
         in["inits"] = floats({b, 1}, rng, 0.05f, 0.5f);
         in["t1"] = scalarF32(1.0f);
         in["dt0"] = scalarF32(0.05f);
         in["max_steps"] = scalarI32(10000);
         return in;
       }});
  all.push_back(
      {"Sde", examplePath("diffrax/sde.mlir"), "main", {7, 1}, [](int64_t b) {
         std::map<std::string, HostBuffer> in;
         in["inits"] = splat(b, 0.1f);
         in["keys"] = keys(0, 7, b);
         in["t1"] = scalarF32(1.0f);
         in["max_steps"] = scalarI32(10000);
         return in;
       }});
  // The vmap issue's divergent programs, with the input ranges of
  // test/Integration/vmap/property.mlir (chosen there so lanes diverge).
  std::string div = divergentPath();
  std::vector<int64_t> sizes = {23, 7, 1};
  all.push_back({"Collatz", div, "collatz_vmap", sizes, [](int64_t b) {
                   Lcg rng(1);
                   std::map<std::string, HostBuffer> in;
                   in["xs"] = ints(b, rng, -3, 60);
                   return in;
                 }});
  all.push_back({"Nested", div, "nested_vmap", sizes, [](int64_t b) {
                   Lcg rng(2);
                   std::map<std::string, HostBuffer> in;
                   in["as"] = floats({b}, rng, 0.0f, 6.0f);
                   in["bs"] = floats({b}, rng, 0.1f, 3.0f);
                   return in;
                 }});
  all.push_back({"Three", div, "three_vmap", sizes, [](int64_t b) {
                   Lcg rng(3);
                   std::map<std::string, HostBuffer> in;
                   in["ns"] = ints(b, rng, -2, 9);
                   return in;
                 }});
  all.push_back({"Grow", div, "grow_vmap", sizes, [](int64_t b) {
                   Lcg rng(4);
                   std::map<std::string, HostBuffer> in;
                   in["xs"] = floats({b}, rng, 0.0f, 20.0f);
                   in["scale"] = scalarF32(1.5f);
                   return in;
                 }});
  all.push_back({"Save", div, "save_vmap", sizes, [](int64_t b) {
                   Lcg rng(5);
                   std::map<std::string, HostBuffer> in;
                   in["rates"] = floats({b}, rng, 0.3f, 3.0f);
                   return in;
                 }});
  all.push_back({"Branchy", div, "branchy_vmap", sizes, [](int64_t b) {
                   Lcg rng(6);
                   std::map<std::string, HostBuffer> in;
                   in["xs"] = floats({b}, rng, -2.0f, 12.0f);
                   return in;
                 }});
  all.push_back({"Trips", div, "trips_vmap", sizes, [](int64_t b) {
                   Lcg rng(7);
                   std::map<std::string, HostBuffer> in;
                   in["ns"] = ints(b, rng, -1, 9);
                   in["xs"] = floats({b}, rng, -1.0f, 1.0f);
                   return in;
                 }});
  return all;
}

/// Whether some output differs between lane 0 and another lane: a test
/// whose lanes all compute the same thing could not notice lanes being
/// swapped or dropped between shards.
bool lanesDiffer(const std::vector<HostBuffer> &outputs) {
  for (const HostBuffer &out : outputs) {
    if (out.rank() == 0 || out.shape()[0] < 2)
      continue;
    size_t laneBytes = out.byteSize() / out.shape()[0];
    const auto *bytes = static_cast<const uint8_t *>(out.data());
    for (int64_t lane = 1; lane < out.shape()[0]; ++lane)
      if (std::memcmp(bytes, bytes + lane * laneBytes, laneBytes) != 0)
        return true;
  }
  return false;
}

struct Variant {
  int shards;
  DivergentPolicy divergent;
  LoopSyncPolicy loopSync;
  int gangWidth = 0;
  bool refill = false;
};

std::string describe(const Variant &v) {
  return "shards=" + std::to_string(v.shards) +
         " divergent=" + toString(v.divergent) +
         (v.gangWidth ? " gang-width=" + std::to_string(v.gangWidth) : "") +
         (v.refill ? " refill" : "") + " loop-sync=" + toString(v.loopSync);
}

/// The variants for one shard count. Under divergent=masked every
/// loop-sync is meaningful: global keeps a predicate all-reduce per
/// iteration, local and auto drop it. Under per-lane each lane runs its own
/// scalar loop, so no loop has a predicate reduced across lanes and
/// loop-sync has nothing to decide: one setting (auto) covers it. Gangs
/// (CompileOptions::gangWidth, refill) of 3 lanes, which divides none of
/// the batches but 3 and is above 1 and 2, are shard-local by
/// construction: global asks for a collective a gang loop never has.
std::vector<Variant> variantsFor(int shards) {
  return {{shards, DivergentPolicy::Masked, LoopSyncPolicy::Global},
          {shards, DivergentPolicy::Masked, LoopSyncPolicy::Local},
          {shards, DivergentPolicy::Masked, LoopSyncPolicy::Auto},
          {shards, DivergentPolicy::PerLane, LoopSyncPolicy::Auto},
          {shards, DivergentPolicy::Gang, LoopSyncPolicy::Global, 3},
          {shards, DivergentPolicy::Gang, LoopSyncPolicy::Auto, 3, true}};
}

class ShardMatrix : public ::testing::TestWithParam<std::tuple<size_t, int>> {};

TEST_P(ShardMatrix, SameBitsAsOneShard) {
  Program program = programs()[std::get<0>(GetParam())];
  int shards = std::get<1>(GetParam());

  // optLevel 1 on both sides: what is compared is the sharding, not the
  // LLVM optimizer (contraction stays off, so no level changes float
  // results), and the seed programs' JIT time at -O3 dominates this test.
  CompileOptions reference;
  reference.entry = program.entry;
  reference.shards = 1;
  reference.optLevel = 1;
  auto single = Executable::compileFile(program.path, reference);
  ASSERT_TRUE(single.ok()) << single.message();
  std::vector<std::vector<HostBuffer>> expected;
  for (int64_t batch : program.batches) {
    auto out = single->callNamed(program.inputs(batch));
    ASSERT_TRUE(out.ok()) << program.name << " batch " << batch << ": "
                          << out.message();
    if (batch > 1) {
      EXPECT_TRUE(lanesDiffer(*out)) << program.name << " batch " << batch;
    }
    expected.push_back(out.take());
  }

  for (const Variant &v : variantsFor(shards)) {
    CompileOptions options;
    options.entry = program.entry;
    options.shards = v.shards;
    options.divergent = v.divergent;
    options.loopSync = v.loopSync;
    options.gangWidth = v.gangWidth;
    options.refill = v.refill;
    options.optLevel = reference.optLevel;
    auto exe = Executable::compileFile(program.path, options);
    ASSERT_TRUE(exe.ok()) << describe(v) << ": " << exe.message();
    for (size_t i = 0; i < program.batches.size(); ++i) {
      int64_t batch = program.batches[i];
      auto out = exe->callNamed(program.inputs(batch));
      ASSERT_TRUE(out.ok())
          << describe(v) << " batch " << batch << ": " << out.message();
      ASSERT_EQ(out->size(), expected[i].size());
      for (size_t r = 0; r < out->size(); ++r) {
        EXPECT_TRUE(sameBits((*out)[r], expected[i][r]))
            << program.name << " " << describe(v) << " batch " << batch
            << ": output " << exe->outputs()[r].name
            << " differs from shards=1";
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    Programs, ShardMatrix,
    ::testing::Combine(::testing::Range<size_t>(0, programs().size()),
                       ::testing::Values(1, 2, 3, 10)),
    [](const ::testing::TestParamInfo<std::tuple<size_t, int>> &info) {
      return programs()[std::get<0>(info.param)].name + "_Shards" +
             std::to_string(std::get<1>(info.param));
    });

//===----------------------------------------------------------------------===//
// A loop that couples lanes
//===----------------------------------------------------------------------===//

// Hand-batched: every lane grows by a share of the sum over all lanes until
// every lane has passed the limit. The sum is inside the loop, so a shard
// that stopped early would change what the others add; and the lanes' values
// span several magnitudes, so a sum in any order but the lanes' own would
// round differently.
constexpr const char *kCoupled = R"mlir(
func.func @main(%x: tensor<?xf32> {loom.batch_axis = 0 : i64, loom.name = "x"})
    -> (tensor<?xf32> {loom.batch_axis = 0 : i64, loom.name = "y"}) {
  %limit = arith.constant 1000.0 : f32
  %share = arith.constant 0.0137 : f32
  %r = scf.while (%y = %x) : (tensor<?xf32>) -> tensor<?xf32> {
    %lim = linalg.fill ins(%limit : f32) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    %m = arith.cmpf olt, %y, %lim : tensor<?xf32>
    %go = loom.any %m along 0 : tensor<?xi1> -> i1
    scf.condition(%go) %y : tensor<?xf32>
  } do {
  ^bb0(%y: tensor<?xf32>):
    %s = loom.sum %y along 0 : tensor<?xf32> -> f32
    %g = arith.mulf %s, %share : f32
    %t = linalg.fill ins(%g : f32) outs(%y : tensor<?xf32>) -> tensor<?xf32>
    %y1 = arith.addf %y, %t : tensor<?xf32>
    scf.yield %y1 : tensor<?xf32>
  }
  return %r : tensor<?xf32>
}
)mlir";

/// Values from 1e-3 to 1e2, so that float additions in another order round
/// differently.
HostBuffer coupledInput(int64_t batch) {
  std::vector<float> values;
  for (int64_t i = 0; i < batch; ++i)
    values.push_back(
        static_cast<float>(0.001 * (1 + i % 5) * (i % 2 ? 1e5 : 1.0) +
                           0.1 * static_cast<double>(i)));
  return owned<float>(DType::F32, {batch}, values);
}

Result<Executable> compileCoupled(int shards, LoopSyncPolicy loopSync) {
  CompileOptions options;
  options.shards = shards;
  options.loopSync = loopSync;
  return Executable::compile(kCoupled, options, "coupled.mlir");
}

TEST(ShardCoupled, SameBitsForEveryShardCount) {
  auto single = compileCoupled(1, LoopSyncPolicy::Auto);
  ASSERT_TRUE(single.ok()) << single.message();
  for (int shards : {1, 2, 3, 10}) {
    // Auto must keep the loop global (the remark is checked by
    // test/Transforms/localize-loops.mlir); were it localized, the shards
    // would sum different sets of lanes and the bits would differ.
    for (LoopSyncPolicy sync : {LoopSyncPolicy::Global, LoopSyncPolicy::Auto}) {
      std::string label = "shards=" + std::to_string(shards) +
                          (sync == LoopSyncPolicy::Auto ? " auto" : " global");
      auto exe = compileCoupled(shards, sync);
      ASSERT_TRUE(exe.ok()) << label << ": " << exe.message();
      for (int64_t batch : {23, 7, 1}) {
        auto expected = single->call({coupledInput(batch)});
        ASSERT_TRUE(expected.ok()) << expected.message();
        auto out = exe->call({coupledInput(batch)});
        ASSERT_TRUE(out.ok()) << label << ": " << out.message();
        EXPECT_TRUE(sameBits(*out, *expected)) << label << " batch=" << batch;
      }
    }
  }
}

TEST(ShardCoupled, LocalIsRefused) {
  for (int shards : {1, 2, 10}) {
    auto exe = compileCoupled(shards, LoopSyncPolicy::Local);
    ASSERT_FALSE(exe.ok()) << "shards=" << shards;
    EXPECT_NE(exe.message().find("loop-sync=local would change results"),
              std::string::npos)
        << exe.message();
  }
}

//===----------------------------------------------------------------------===//
// Bad input
//===----------------------------------------------------------------------===//

TEST(ShardErrors, NegativeShards) {
  CompileOptions options;
  options.shards = -1;
  auto exe = Executable::compile(kCoupled, options, "coupled.mlir");
  ASSERT_FALSE(exe.ok());
  EXPECT_EQ(exe.message(), "shards must be 1 to 1024 (0: from the program's "
                           "mesh), got -1");
}

// The limit is loom::kMaxShards, the one loom-shard and the mesh use: the
// call fails at compile time, on one line, before any pass runs.
TEST(ShardErrors, TooManyShards) {
  CompileOptions options;
  options.shards = kMaxShards + 1;
  auto exe = Executable::compile(kCoupled, options, "coupled.mlir");
  ASSERT_FALSE(exe.ok());
  EXPECT_EQ(exe.message(), "shards must be 1 to 1024 (0: from the program's "
                           "mesh), got 1025");
}

TEST(ShardErrors, BatchAxisOne) {
  constexpr const char *kAxis1 = R"mlir(
func.func @main(%x: tensor<3x?xf32> {loom.batch_axis = 1 : i64})
    -> tensor<3x?xf32> {
  return %x : tensor<3x?xf32>
}
)mlir";
  CompileOptions options;
  options.shards = 2;
  auto exe = Executable::compile(kAxis1, options, "axis1.mlir");
  ASSERT_FALSE(exe.ok());
  EXPECT_NE(exe.message().find("splits axis 0 only"), std::string::npos)
      << exe.message();
}

} // namespace
