//===- Variants.cpp - Choosing between compiled variants by time ----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Each variant runs kTrials times, alternately, and its fastest run counts:
// the first visit of a site also pays for first touches of memory and cold
// caches, which the minimum leaves out.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Variants.h"

#include <cstddef>

using namespace loom;

int32_t VariantChoices::begin(int32_t site, int32_t count, int64_t now) {
  if (site < 0 || site >= kMaxSite || count < 1 || count > 2)
    return 0;
  if (static_cast<std::size_t>(site) >= sites.size())
    sites.resize(static_cast<std::size_t>(site) + 1);
  Site &s = sites[site];
  s.count = count;
  if (s.chosen >= 0) {
    s.running = s.chosen;
    return s.chosen;
  }
  s.running = s.trials % count;
  s.start = now;
  return s.running;
}

void VariantChoices::end(int32_t site, int64_t now) {
  if (site < 0 || static_cast<std::size_t>(site) >= sites.size())
    return;
  Site &s = sites[site];
  if (s.running < 0 || s.chosen >= 0) {
    s.running = -1;
    return;
  }
  int64_t time = now - s.start;
  int64_t &best = s.best[s.running];
  if (best < 0 || time < best)
    best = time;
  s.running = -1;
  if (++s.trials < kTrials * s.count)
    return;
  s.chosen = 0;
  for (int32_t v = 1; v < s.count; ++v)
    if (s.best[v] < s.best[s.chosen])
      s.chosen = v;
}

const VariantChoices::Site *VariantChoices::find(int32_t site) const {
  if (site < 0 || static_cast<std::size_t>(site) >= sites.size())
    return nullptr;
  return &sites[site];
}

int32_t VariantChoices::chosen(int32_t site) const {
  const Site *s = find(site);
  return s ? s->chosen : -1;
}

int64_t VariantChoices::bestTime(int32_t site, int32_t variant) const {
  const Site *s = find(site);
  if (!s || variant < 0 || variant > 1)
    return -1;
  return s->best[variant];
}

std::vector<VariantStats> VariantChoices::snapshot() const {
  std::vector<VariantStats> out(sites.size());
  for (std::size_t i = 0; i < sites.size(); ++i) {
    out[i].chosen = sites[i].chosen;
    out[i].best[0] = sites[i].best[0];
    out[i].best[1] = sites[i].best[1];
  }
  return out;
}
