//===- ThreefryTest.cpp - Host threefry against published vectors ---------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Support/Threefry.h"

#include <gtest/gtest.h>

using namespace loom::threefry;

// Random123's known-answer vectors for threefry2x32 with 20 rounds
// (kat_vectors: "threefry2x32 20").
TEST(Threefry, Random123KnownAnswers) {
  EXPECT_EQ(block({0u, 0u}, {0u, 0u}),
            (std::array<uint32_t, 2>{0x6b200159u, 0x99ba4efeu}));
  EXPECT_EQ(block({0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}),
            (std::array<uint32_t, 2>{0x1cb996fcu, 0xbb002be7u}));
  EXPECT_EQ(block({0x13198a2eu, 0x03707344u}, {0x243f6a88u, 0x85a308d3u}),
            (std::array<uint32_t, 2>{0xc4923a9cu, 0x483df7a0u}));
}

TEST(Threefry, PrngKeyReadsSeedBitsAsUnsigned) {
  EXPECT_EQ(prngKey(0), (Key{0u, 0u}));
  EXPECT_EQ(prngKey(-2), (Key{0u, 4294967294u}));
}

// Values from ../shared/reference/golden.md and JAX's random_test.py.
TEST(Threefry, SplitMatchesJax) {
  EXPECT_EQ(split(prngKey(0), 2, false),
            (std::vector<uint32_t>{4146024105u, 967050713u, 2718843009u,
                                   1272950319u}));
  std::vector<uint32_t> keys30 = split(prngKey(0), 30, false);
  ASSERT_EQ(keys30.size(), 60u);
  EXPECT_EQ(keys30[0], 534634087u);
  EXPECT_EQ(keys30[1], 469980698u);
  EXPECT_EQ(keys30[2], 1017646311u);
  EXPECT_EQ(keys30[3], 4061991058u);
  EXPECT_EQ(keys30[4], 684930454u);
  EXPECT_EQ(keys30[5], 3631591071u);
  // Non-partitionable split(k, n) depends on n: the 300 keys do not start
  // with the 30.
  std::vector<uint32_t> keys300 = split(prngKey(0), 300, false);
  EXPECT_EQ(keys300[0], 2264043288u);
  EXPECT_EQ(keys300[1], 330151505u);
  EXPECT_EQ(keys300[2], 945335751u);
  EXPECT_EQ(keys300[3], 2658791920u);
  EXPECT_EQ(keys300[4], 131572300u);
  EXPECT_EQ(keys300[5], 639162889u);
}

// Partitionable keys do not depend on how many are drawn: each is the block
// of (0, i).
TEST(Threefry, PartitionableSplitIsPrefixStable) {
  std::vector<uint32_t> a = split(prngKey(0), 3, true);
  std::vector<uint32_t> b = split(prngKey(0), 7, true);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
  auto k1 = block(prngKey(0), {0u, 1u});
  EXPECT_EQ(a[2], k1[0]);
  EXPECT_EQ(a[3], k1[1]);
}

// random_bits with an odd count pads the counts with one zero: the first
// word equals the first half of threefry_2x32(key, [0, 1, 2, 0]).
TEST(Threefry, OddCountsArePadded) {
  Key key = prngKey(42);
  std::vector<uint32_t> bits = randomBits(key, 3, false);
  auto y0 = block(key, {0u, 2u});
  auto y1 = block(key, {1u, 0u});
  EXPECT_EQ(bits, (std::vector<uint32_t>{y0[0], y1[0], y0[1]}));
}

TEST(Threefry, FoldInHashesZeroAndData) {
  Key key = prngKey(7);
  auto y = block(key, {0u, 5u});
  EXPECT_EQ(foldIn(key, 5u), (Key{y[0], y[1]}));
}

// bits(key, (n,), uint64) with x64 on and jax_threefry_partitionable=False,
// from JAX's tests/random_test.py: testRngRandomBits (PRNGKey(1701)) and the
// uint64 "bits" entry of _RANDOM_VALUES_CASES, whose seed is
// zlib.adler32(b"bitsthreefry2x32") = 942802475.
TEST(Threefry, RandomBits64MatchesJax) {
  EXPECT_EQ(randomBits64(prngKey(1701), 3, false),
            (std::vector<uint64_t>{3982329540505020460u, 16822122385914693683u,
                                   7882654074788531506u}));
  EXPECT_EQ(randomBits64(Key{0u, 942802475u}, 5, false),
            (std::vector<uint64_t>{17649965731882839947u, 1415307058040849897u,
                                   8282622628079774249u, 14024425113645909402u,
                                   2012979996110532418u}));
}

// Partitionable 64-bit words join the two outputs of block (0, i), high
// first; they do not depend on how many are drawn. Without partitionable
// they do: n words hash the counts (i, n + i).
TEST(Threefry, RandomBits64Layout) {
  Key key = prngKey(3);
  std::vector<uint64_t> a = randomBits64(key, 2, true);
  std::vector<uint64_t> b = randomBits64(key, 5, true);
  EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
  auto y = block(key, {0u, 1u});
  EXPECT_EQ(a[1], (uint64_t(y[0]) << 32) | y[1]);
  auto z = block(key, {1u, 6u});
  EXPECT_EQ(randomBits64(key, 5, false)[1], (uint64_t(z[0]) << 32) | z[1]);
}

// split() as the original hashCounts(iota(2n)) defines it, which splitInto
// and splitKey lay out without the counts; odd and even n, both settings.
TEST(Threefry, SplitKeyIsThatRowOfSplit) {
  Key key = prngKey(-7);
  for (size_t n : {1u, 2u, 3u, 30u, 31u}) {
    std::vector<uint32_t> counts(2 * n);
    for (size_t i = 0; i < counts.size(); ++i)
      counts[i] = static_cast<uint32_t>(i);
    EXPECT_EQ(split(key, n, false), hashCounts(key, counts)) << n;
    for (bool partitionable : {false, true}) {
      std::vector<uint32_t> all = split(key, n, partitionable);
      for (size_t i = 0; i < n; ++i)
        EXPECT_EQ(splitKey(key, n, i, partitionable),
                  (Key{all[2 * i], all[2 * i + 1]}))
            << n << " " << i << " " << partitionable;
    }
  }
}
