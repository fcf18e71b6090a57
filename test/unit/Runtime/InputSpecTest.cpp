//===- InputSpecTest.cpp - jax-split specs and the SPEC dispatch ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// `fill:` has its cases in NpyTest.cpp. The golden keys are JAX's, the same
// as ThreefryTest.cpp's and test/tools/loom-run's.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/InputSpec.h"
#include "loom/Support/Threefry.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

using namespace loom;

namespace {

std::vector<uint32_t> words(const HostBuffer &b) {
  const uint32_t *w = b.dataAs<uint32_t>();
  return std::vector<uint32_t>(w, w + b.numElements());
}

/// The key `spec` gives, which must parse.
std::vector<uint32_t> keyOf(const std::string &spec) {
  Result<HostBuffer> r = parseSplitSpec(spec);
  EXPECT_TRUE(r.ok()) << spec << ": " << r.message();
  if (!r)
    return {};
  EXPECT_EQ(r->dtype(), DType::U32) << spec;
  return words(*r);
}

TEST(SplitSpec, AllKeysMatchJax) {
  Result<HostBuffer> two = parseSplitSpec("jax-split:0:2");
  ASSERT_TRUE(two.ok()) << two.message();
  EXPECT_EQ(two->typeString(), "2x2xu32");
  EXPECT_EQ(words(*two), (std::vector<uint32_t>{4146024105u, 967050713u,
                                                2718843009u, 1272950319u}));
  Result<HostBuffer> thirty = parseSplitSpec("jax-split:0:30");
  ASSERT_TRUE(thirty.ok()) << thirty.message();
  EXPECT_EQ(thirty->typeString(), "30x2xu32");
  std::vector<uint32_t> w = words(*thirty);
  EXPECT_EQ(std::vector<uint32_t>(w.begin(), w.begin() + 6),
            (std::vector<uint32_t>{534634087u, 469980698u, 1017646311u,
                                   4061991058u, 684930454u, 3631591071u}));
}

// One lane's key is that row of the batch's, with the batch's COUNT.
TEST(SplitSpec, IndexPicksOneKey) {
  EXPECT_EQ(keyOf("jax-split:0:30:2"),
            (std::vector<uint32_t>{684930454u, 3631591071u}));
  EXPECT_EQ(keyOf("jax-split:0:300:1"),
            (std::vector<uint32_t>{945335751u, 2658791920u}));
  Result<HostBuffer> one = parseSplitSpec("jax-split:0:300:0");
  ASSERT_TRUE(one.ok()) << one.message();
  EXPECT_EQ(one->typeString(), "2xu32");
  for (const char *prefix : {"jax-split", "jax-split-partitionable"})
    for (int count : {1, 2, 7, 30}) {
      std::string base = std::string(prefix) + ":-3:" + std::to_string(count);
      std::vector<uint32_t> all = keyOf(base);
      for (int i = 0; i < count; ++i)
        EXPECT_EQ(
            keyOf(base + ":" + std::to_string(i)),
            std::vector<uint32_t>(all.begin() + 2 * i, all.begin() + 2 * i + 2))
            << base << ":" << i;
    }
}

// A lane of a batch of kMaxSplitCount keys costs no more than any other:
// the key is JAX's flat words 2i and 2i + 1 of iota(2n)'s hash (or block i,
// partitionable), without the batch.
TEST(SplitSpec, LaneOfLargestBatchIsComputedAlone) {
  using threefry::block;
  const uint32_t n = kMaxSplitCount;
  threefry::Key key = threefry::prngKey(0);
  EXPECT_EQ(keyOf("jax-split:0:1073741824:7"),
            (std::vector<uint32_t>{block(key, {14u, n + 14u})[0],
                                   block(key, {15u, n + 15u})[0]}));
  // Key n - 1 is flat words 2n - 2 and 2n - 1: the second outputs of
  // blocks n - 2 and n - 1.
  EXPECT_EQ(keyOf("jax-split:0:1073741824:1073741823"),
            (std::vector<uint32_t>{block(key, {n - 2, 2 * n - 2})[1],
                                   block(key, {n - 1, 2 * n - 1})[1]}));
  auto part = block(key, {0u, n - 1});
  EXPECT_EQ(keyOf("jax-split-partitionable:0:1073741824:1073741823"),
            (std::vector<uint32_t>{part[0], part[1]}));
}

TEST(SplitSpec, AcceptsSeedRangeAndPlus) {
  EXPECT_EQ(keyOf("jax-split:+5:3:1"), keyOf("jax-split:5:3:1"));
  EXPECT_EQ(keyOf("jax-split:-0:3:1"), keyOf("jax-split:0:3:1"));
  // PRNGKey reads the seed's bits: -1 is the key (0, 0xffffffff).
  EXPECT_EQ(keyOf("jax-split:-1:2"),
            threefry::split({0u, 0xffffffffu}, 2, false));
  EXPECT_EQ(keyOf("jax-split:2147483647:1").size(), 2u);
  EXPECT_EQ(keyOf("jax-split:-2147483648:1").size(), 2u);
}

TEST(SplitSpec, RejectsBadSpecs) {
  const std::string generic =
      ":SEED:COUNT[:INDEX] with an int32 seed, a positive count and an index "
      "below it)";
  const char *bad[] = {
      "jax-split:",
      "jax-split:0",
      "jax-split::30",
      "jax-split:0:",
      "jax-split:0:30:",
      "jax-split:0:30:1:2",
      "jax-split:x:30",
      "jax-split: 0:30",
      "jax-split:0:30 ",
      "jax-split:0:3x",
      "jax-split:0:0x10",
      "jax-split:0:1e3",
      "jax-split:0:+-3",
      "jax-split:0:+",
      "jax-split:0:-",
      "jax-split:2147483648:2",
      "jax-split:-2147483649:2",
      "jax-split:99999999999999999999:2",
      "jax-split:0:0",
      "jax-split:0:-1",
      "jax-split:0:-99999999999999999999",
      "jax-split:0:30:30",
      "jax-split:0:30:-1",
      "jax-split:0:30:99999999999999999999",
      "jax-split:0:1:1",
      "jax-split-partitionable:0:30:x",
  };
  for (const char *spec : bad) {
    Result<HostBuffer> r = parseSplitSpec(spec);
    ASSERT_FALSE(r.ok()) << spec;
    std::string s(spec);
    std::string prefix = s.substr(0, s.find(':'));
    EXPECT_EQ(r.message(),
              "bad key spec '" + s + "' (expected " + prefix + generic)
        << spec;
  }
}

// A COUNT above the limit is refused before anything is allocated, with or
// without INDEX, and names the limit.
TEST(SplitSpec, RejectsCountAboveLimit) {
  for (const char *spec : {"jax-split:0:1073741825", "jax-split:0:4294967296",
                           "jax-split:0:4294967297:0",
                           "jax-split-partitionable:0:9223372036854775807",
                           "jax-split:0:99999999999999999999999:1"}) {
    Result<HostBuffer> r = parseSplitSpec(spec);
    ASSERT_FALSE(r.ok()) << spec;
    EXPECT_EQ(r.message(), std::string("bad key spec '") + spec +
                               "' (COUNT is at most 1073741824)");
  }
}

TEST(InputSpec, DispatchesOnPrefix) {
  EXPECT_TRUE(isGeneratedSpec("fill:1:f32"));
  EXPECT_TRUE(isGeneratedSpec("jax-split:0:2"));
  EXPECT_TRUE(isGeneratedSpec("jax-split-partitionable:0:2"));
  EXPECT_FALSE(isGeneratedSpec("jax-split"));
  EXPECT_FALSE(isGeneratedSpec("keys.npy"));
  Result<HostBuffer> fill = parseInputSpec("fill:3:2xi32");
  ASSERT_TRUE(fill.ok()) << fill.message();
  EXPECT_EQ(fill->typeString(), "2xi32");
  Result<HostBuffer> keys = parseInputSpec("jax-split-partitionable:0:3");
  ASSERT_TRUE(keys.ok()) << keys.message();
  EXPECT_EQ(words(*keys), threefry::split(threefry::prngKey(0), 3, true));
  // Anything else is a path, and its error names it.
  Result<HostBuffer> file = parseInputSpec("jax-split-no-such.npy");
  ASSERT_FALSE(file.ok());
  EXPECT_EQ(file.message().rfind("jax-split-no-such.npy", 0), 0u)
      << file.message();
}

} // namespace
