//===- Variants.h - Choosing between compiled variants by time --*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A program compiled with `loom.variant_begin` holds two lowerings of a loop
// nest that compute the same bits, because which is faster depends on the
// inputs (how unevenly the lanes' trip counts spread), not on the code. Each
// shard decides for itself, from what it measured: it runs the two in turn
// on its first visits of a site, then keeps the faster. Shards never need
// to agree, since the variants hold no collective.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_VARIANTS_H
#define LOOM_RUNTIME_VARIANTS_H

#include <cstdint>
#include <vector>

namespace loom {

/// What one shard knows of one site.
struct VariantStats {
  /// The variant kept (0: primary, 1: alternative), or -1 while it is still
  /// being timed or was never reached.
  int32_t chosen = -1;
  /// The least CPU time of the shard's thread measured for each variant, in
  /// nanoseconds; -1 if none.
  int64_t best[2] = {-1, -1};
};

/// One shard's choices, one per variant site of the program (numbered
/// densely by the compiler). Kept for the mesh's lifetime, across calls.
class VariantChoices {
public:
  /// Visits of a site that time each variant before one is kept.
  static constexpr int32_t kTrials = 2;
  /// Sites at or above this are treated as unknown (a compiler bug): they
  /// always run the primary, and are not recorded.
  static constexpr int32_t kMaxSite = 1 << 16;

  /// The variant (0: primary, 1: alternative) to run at `site` at time
  /// `now` (in nanoseconds of the shard thread's CPU clock), out of `count`.
  int32_t begin(int32_t site, int32_t count, int64_t now);
  /// Records that the variant begin() chose at `site` ended at `now`.
  void end(int32_t site, int64_t now);

  /// The variant kept at `site`, or -1 while it is still being timed.
  int32_t chosen(int32_t site) const;
  /// The fastest time measured for `variant` at `site`, or -1 if none.
  int64_t bestTime(int32_t site, int32_t variant) const;
  /// Every site up to the highest one visited, by site number.
  std::vector<VariantStats> snapshot() const;

private:
  struct Site {
    int32_t count = 0;
    int32_t running = -1;
    int32_t chosen = -1;
    int32_t trials = 0;
    int64_t start = 0;
    int64_t best[2] = {-1, -1};
  };
  const Site *find(int32_t site) const;
  std::vector<Site> sites;
};

} // namespace loom

#endif // LOOM_RUNTIME_VARIANTS_H
