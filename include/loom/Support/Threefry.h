//===- Threefry.h - JAX-compatible threefry2x32 on the host -----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A host implementation of JAX's default PRNG (threefry2x32-20) and of the
// key operations built on it. The compiler folds constant keys with it, and
// the runtime uses it to generate keys for `loom-run` (`jax-split:`), so it
// depends on neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_SUPPORT_THREEFRY_H
#define LOOM_SUPPORT_THREEFRY_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace loom::threefry {

/// A raw JAX key: two unsigned 32-bit words.
using Key = std::array<uint32_t, 2>;

/// One threefry2x32 block with 20 rounds (Random123's threefry2x32_20).
std::array<uint32_t, 2> block(Key key, std::array<uint32_t, 2> counter);

/// JAX's `threefry_2x32(key, counts)`: the counts are split into two halves
/// (padded with one zero when their number is odd) that form the two words
/// of each block, and the two output halves are concatenated again.
std::vector<uint32_t> hashCounts(Key key, const std::vector<uint32_t> &counts);

/// `jax.random.PRNGKey(seed)` for an int32 seed with x64 off.
Key prngKey(int32_t seed);

/// `jax.random.split(key, n)`: n keys, flattened (2n words).
std::vector<uint32_t> split(Key key, size_t n, bool partitionable);

/// split() into `out`, which holds 2n words: a caller that owns a buffer
/// (loom-run's `jax-split:`) need not hold the keys twice.
void splitInto(Key key, size_t n, bool partitionable, uint32_t *out);

/// Key `index` of `split(key, n)` (index < n), computed alone: one lane's
/// key costs two blocks however many keys the split draws.
Key splitKey(Key key, uint64_t n, uint64_t index, bool partitionable);

/// `jax.random.fold_in(key, data)`.
Key foldIn(Key key, uint32_t data);

/// `jax.random.bits(key, (n,), uint32)`.
std::vector<uint32_t> randomBits(Key key, size_t n, bool partitionable);

/// `jax.random.bits(key, (n,), uint64)` with x64 on: the 64-bit words that
/// float64 `uniform` and `normal` are made from.
std::vector<uint64_t> randomBits64(Key key, size_t n, bool partitionable);

} // namespace loom::threefry

#endif // LOOM_SUPPORT_THREEFRY_H
