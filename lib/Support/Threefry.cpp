//===- Threefry.cpp - JAX-compatible threefry2x32 on the host -------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Follows jax/_src/prng.py: `_threefry2x32_lowering` for the block function,
// `threefry_2x32` for how counts become blocks, `_threefry_split_original` /
// `_threefry_split_foldlike` and `_threefry_random_bits_original` /
// `_threefry_random_bits_partitionable` for the two settings of
// jax_threefry_partitionable.
//
//===----------------------------------------------------------------------===//

#include "loom/Support/Threefry.h"

namespace loom::threefry {

static uint32_t rotl(uint32_t v, unsigned r) {
  return (v << r) | (v >> (32 - r));
}

std::array<uint32_t, 2> block(Key key, std::array<uint32_t, 2> counter) {
  static constexpr unsigned kRotations[2][4] = {{13, 15, 26, 6},
                                                {17, 29, 16, 24}};
  const uint32_t ks[3] = {key[0], key[1], key[0] ^ key[1] ^ 0x1BD11BDAu};
  uint32_t x0 = counter[0] + ks[0];
  uint32_t x1 = counter[1] + ks[1];
  // Five groups of four rounds, each followed by a key injection.
  for (unsigned group = 1; group <= 5; ++group) {
    for (unsigned r : kRotations[(group - 1) % 2]) {
      x0 += x1;
      x1 = rotl(x1, r) ^ x0;
    }
    x0 += ks[group % 3];
    x1 += ks[(group + 1) % 3] + group;
  }
  return {x0, x1};
}

std::vector<uint32_t> hashCounts(Key key, const std::vector<uint32_t> &counts) {
  size_t n = counts.size();
  size_t half = (n + 1) / 2;
  std::vector<uint32_t> out(2 * half);
  for (size_t i = 0; i < half; ++i) {
    uint32_t hi = half + i < n ? counts[half + i] : 0u;
    auto y = block(key, {counts[i], hi});
    out[i] = y[0];
    out[half + i] = y[1];
  }
  out.resize(n);
  return out;
}

Key prngKey(int32_t seed) {
  // threefry_seed: the high word is `seed >> 32`, which XLA defines as 0 for
  // a 32-bit operand; the low word is the seed's bits.
  return {0u, static_cast<uint32_t>(seed)};
}

std::vector<uint32_t> split(Key key, size_t n, bool partitionable) {
  std::vector<uint32_t> out(2 * n);
  splitInto(key, n, partitionable, out.data());
  return out;
}

/// The 64-bit count `i` as the two words JAX's iota_2x32_shape gives it.
static std::array<uint32_t, 2> counter64(uint64_t i) {
  return {static_cast<uint32_t>(i >> 32), static_cast<uint32_t>(i)};
}

void splitInto(Key key, size_t n, bool partitionable, uint32_t *out) {
  // Without partitionable, the counts are iota(2n) and their two halves
  // pair up: block (i, n + i) gives flat words i and n + i. With it, key i
  // is block (i as two words).
  for (size_t i = 0; i < n; ++i) {
    if (partitionable) {
      auto y = block(key, counter64(i));
      out[2 * i] = y[0];
      out[2 * i + 1] = y[1];
      continue;
    }
    auto y =
        block(key, {static_cast<uint32_t>(i), static_cast<uint32_t>(n + i)});
    out[i] = y[0];
    out[n + i] = y[1];
  }
}

Key splitKey(Key key, uint64_t n, uint64_t index, bool partitionable) {
  if (partitionable) {
    auto y = block(key, counter64(index));
    return {y[0], y[1]};
  }
  // Flat word k of the non-partitionable split, as splitInto lays it out.
  auto word = [&](uint64_t k) {
    return k < n ? block(key, {static_cast<uint32_t>(k),
                               static_cast<uint32_t>(n + k)})[0]
                 : block(key, {static_cast<uint32_t>(k - n),
                               static_cast<uint32_t>(k)})[1];
  };
  return {word(2 * index), word(2 * index + 1)};
}

Key foldIn(Key key, uint32_t data) {
  auto out = hashCounts(key, {0u, data});
  return {out[0], out[1]};
}

std::vector<uint32_t> randomBits(Key key, size_t n, bool partitionable) {
  if (!partitionable) {
    std::vector<uint32_t> counts(n);
    for (size_t i = 0; i < n; ++i)
      counts[i] = static_cast<uint32_t>(i);
    return hashCounts(key, counts);
  }
  std::vector<uint32_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    auto y = block(key, {0u, static_cast<uint32_t>(i)});
    out[i] = y[0] ^ y[1];
  }
  return out;
}

std::vector<uint64_t> randomBits64(Key key, size_t n, bool partitionable) {
  // Without partitionable, JAX hashes 2n counts into 2n words and joins word
  // i of the first half (high) with word i of the second; with an even
  // count the halves are exactly the two outputs of block (i, n + i). With
  // it, element i is block (0, i), high word first, as for 32 bits but
  // without the xor.
  std::vector<uint64_t> out(n);
  for (size_t i = 0; i < n; ++i) {
    auto y = partitionable ? block(key, {0u, static_cast<uint32_t>(i)})
                           : block(key, {static_cast<uint32_t>(i),
                                         static_cast<uint32_t>(n + i)});
    out[i] = (static_cast<uint64_t>(y[0]) << 32) | y[1];
  }
  return out;
}

} // namespace loom::threefry
