//===- MeshTest.cpp - The CPU thread mesh, its collectives and counters ---===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Bodies here do what lowered programs do: each shard reduces its own lanes,
// then calls the C ABI with its context handle. Every collective is checked
// against a sequential computation over all lanes, on every shard, for 1, 2,
// 3 and 10 shards (10 on a 2-core machine: oversubscribed), with batches
// that the shard count does not divide.
//
// The only timed assertion is the fault-injection bound (an error reaches
// the caller within a second); a watchdog turns a hang anywhere in a test
// into an abort with a message instead of a stuck ctest.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Mesh.h"
#include "loom/Runtime/ABI.h"
#include "loom/Runtime/Barrier.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <limits>
#include <mutex>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace loom;
using Clock = std::chrono::steady_clock;

namespace {

/// Aborts the process, with a message, if it is not destroyed within
/// `limit`: a deadlock fails the test run instead of hanging it.
class Watchdog {
public:
  Watchdog(const char *what, std::chrono::seconds limit)
      : thread_([this, what, limit] {
          std::unique_lock<std::mutex> lock(mutex_);
          if (!cv_.wait_for(lock, limit, [this] { return done_; })) {
            std::fprintf(stderr, "watchdog: %s did not finish within %llds\n",
                         what, static_cast<long long>(limit.count()));
            std::abort();
          }
        }) {}
  ~Watchdog() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }

private:
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

std::unique_ptr<ThreadMesh> makeMesh(int64_t numShards) {
  Result<std::unique_ptr<ThreadMesh>> mesh = ThreadMesh::create(numShards);
  EXPECT_TRUE(mesh.ok()) << mesh.message();
  return mesh.take();
}

template <typename T>
bool sameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

/// IEEE 754-2019 maximum/minimum, written independently of the runtime's:
/// NaN if any operand is NaN, -0.0 below +0.0.
template <typename T>
T referenceMaxMin(const std::vector<T> &values, bool isMax) {
  T acc = isMax ? -std::numeric_limits<T>::infinity()
                : std::numeric_limits<T>::infinity();
  for (T v : values) {
    if (std::isnan(v))
      return v;
    if (v == 0 && acc == 0) {
      if (isMax ? !std::signbit(v) : std::signbit(v))
        acc = v;
    } else if (isMax ? v > acc : v < acc) {
      acc = v;
    }
  }
  return acc;
}

template <typename T>
T sequentialSum(const std::vector<T> &values) {
  T acc = T(0);
  for (T v : values)
    acc += v;
  return acc;
}

/// Values of widely varying magnitude and both signs, so that adding them
/// in another order (per-shard partial sums, a tree) changes the bits.
template <typename T>
std::vector<T> wildValues(size_t count, uint64_t seed, int maxExponent) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> mantissa(1.0, 2.0);
  std::uniform_int_distribution<int> exponent(-maxExponent, maxExponent);
  std::vector<T> values(count);
  for (T &v : values) {
    double m = mantissa(rng) * ((rng() & 1) ? -1.0 : 1.0);
    v = static_cast<T>(std::ldexp(m, exponent(rng)));
  }
  return values;
}

//===----------------------------------------------------------------------===//
// Lane splits
//===----------------------------------------------------------------------===//

TEST(SplitLanes, UnevenFirstShardsGetOneMore) {
  std::vector<int64_t> sizes;
  for (int32_t s = 0; s < 3; ++s)
    sizes.push_back(splitLanes(10, 3, s).size());
  EXPECT_EQ(sizes, (std::vector<int64_t>{4, 3, 3}));
  EXPECT_EQ(splitLanes(10, 3, 1).begin, 4);
  EXPECT_EQ(splitLanes(10, 3, 2).begin, 7);
  EXPECT_EQ(splitLanes(10, 3, 2).end, 10);
}

TEST(SplitLanes, FewerLanesThanShards) {
  EXPECT_EQ(splitLanes(2, 3, 0).size(), 1);
  EXPECT_EQ(splitLanes(2, 3, 1).size(), 1);
  EXPECT_EQ(splitLanes(2, 3, 2).size(), 0);
  EXPECT_EQ(splitLanes(2, 3, 2).begin, 2);
  EXPECT_EQ(splitLanes(0, 4, 3).size(), 0);
}

TEST(SplitLanes, ContiguousCoveringAndBalanced) {
  for (int32_t n = 1; n <= 12; ++n) {
    for (int64_t batch = 0; batch <= 40; ++batch) {
      int64_t next = 0;
      for (int32_t s = 0; s < n; ++s) {
        LaneRange r = splitLanes(batch, n, s);
        EXPECT_EQ(r.begin, next) << batch << " on " << n;
        int64_t expected = batch / n + (s < batch % n ? 1 : 0);
        EXPECT_EQ(r.size(), expected) << batch << " on " << n;
        next = r.end;
      }
      EXPECT_EQ(next, batch);
    }
  }
}

//===----------------------------------------------------------------------===//
// Variant choices
//===----------------------------------------------------------------------===//

/// Runs one visit of `site` at fake time `now`, taking `times[variant]`.
int32_t visit(VariantChoices &choices, int32_t site, int64_t &now,
              const int64_t (&times)[2]) {
  int32_t variant = choices.begin(site, 2, now);
  now += times[variant];
  choices.end(site, now);
  return variant;
}

TEST(VariantChoices, TimesEachInTurnThenKeepsTheFaster) {
  VariantChoices choices;
  int64_t now = 1000;
  const int64_t times[2] = {500, 200};
  std::vector<int32_t> ran;
  for (int i = 0; i < 2 * VariantChoices::kTrials + 3; ++i) {
    if (i < 2 * VariantChoices::kTrials)
      EXPECT_EQ(choices.chosen(0), -1) << i;
    ran.push_back(visit(choices, 0, now, times));
  }
  EXPECT_EQ(ran, (std::vector<int32_t>{0, 1, 0, 1, 1, 1, 1}));
  EXPECT_EQ(choices.chosen(0), 1);
  EXPECT_EQ(choices.bestTime(0, 0), 500);
  EXPECT_EQ(choices.bestTime(0, 1), 200);
}

TEST(VariantChoices, TheFastestTrialCountsAndTiesKeepThePrimary) {
  // The first visit pays for cold caches: its time must not decide.
  VariantChoices choices;
  int64_t now = 0;
  visit(choices, 3, now, {900, 0});
  visit(choices, 3, now, {0, 300});
  visit(choices, 3, now, {250, 0});
  visit(choices, 3, now, {0, 400});
  EXPECT_EQ(choices.chosen(3), 0);
  EXPECT_EQ(choices.bestTime(3, 0), 250);
  EXPECT_EQ(choices.bestTime(3, 1), 300);
  // Sites are independent, and an unvisited one is undecided.
  EXPECT_EQ(choices.chosen(1), -1);
  VariantChoices tie;
  for (int i = 0; i < 2 * VariantChoices::kTrials; ++i)
    visit(tie, 0, now, {100, 100});
  EXPECT_EQ(tie.chosen(0), 0);
}

TEST(VariantChoices, BadSitesAndCountsRunThePrimary) {
  VariantChoices choices;
  EXPECT_EQ(choices.begin(-1, 2, 0), 0);
  EXPECT_EQ(choices.begin(VariantChoices::kMaxSite, 2, 0), 0);
  EXPECT_EQ(choices.begin(0, 3, 0), 0);
  EXPECT_EQ(choices.begin(0, 0, 0), 0);
  choices.end(-1, 10);
  choices.end(VariantChoices::kMaxSite, 10);
  // An end without a begin records nothing.
  choices.end(5, 10);
  EXPECT_EQ(choices.bestTime(5, 0), -1);
  EXPECT_EQ(choices.bestTime(0, 7), -1);
}

/// Runs for `cpu` of this thread's CPU time.
void spinFor(std::chrono::nanoseconds cpu) {
  auto now = [] {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return std::chrono::seconds(t.tv_sec) + std::chrono::nanoseconds(t.tv_nsec);
  };
  auto end = now() + cpu;
  while (now() < end) {
  }
}

TEST(VariantChoices, EachShardKeepsItsOwnAcrossRuns) {
  auto mesh = makeMesh(2);
  ASSERT_TRUE(mesh);
  std::vector<int32_t> ran[2];
  for (int run = 0; run < 6; ++run) {
    Status status = mesh->run(2, [&](ShardContext &ctx) {
      int64_t handle = ctx.abiHandle();
      int32_t variant = loom_rt_variant_begin(handle, 0, 2);
      // Shard 0's alternative is slow, shard 1's primary.
      if ((ctx.shard == 0) == (variant == 1))
        spinFor(std::chrono::milliseconds(5));
      loom_rt_variant_end(handle, 0);
      ran[ctx.shard].push_back(variant);
      return Status::success();
    });
    ASSERT_TRUE(status.ok()) << status.message();
  }
  EXPECT_EQ(ran[0], (std::vector<int32_t>{0, 1, 0, 1, 0, 0}));
  EXPECT_EQ(ran[1], (std::vector<int32_t>{0, 1, 0, 1, 1, 1}));
  // The stats report each shard's choice and times, and a reset of the
  // counters neither forgets nor restarts them.
  mesh->resetStats();
  MeshStats stats = mesh->stats();
  ASSERT_EQ(stats.shards.size(), 2u);
  for (int s = 0; s < 2; ++s) {
    ASSERT_EQ(stats.shards[s].variants.size(), 1u);
    const VariantStats &site = stats.shards[s].variants[0];
    EXPECT_EQ(site.chosen, s == 0 ? 0 : 1);
    int64_t slow = site.best[s == 0 ? 1 : 0], fast = site.best[s];
    EXPECT_GE(slow, 5'000'000);
    EXPECT_GE(fast, 0);
    EXPECT_LT(fast, slow);
  }
}

/// A variant is timed by the CPU time its shard's thread ran, so a shard
/// that waited for a core (here: slept) does not charge the wait to the
/// variant it was running.
TEST(VariantChoices, TimeWithoutTheCoreDoesNotCount) {
  auto mesh = makeMesh(1);
  ASSERT_TRUE(mesh);
  std::vector<int32_t> ran;
  for (int run = 0; run < 2 * VariantChoices::kTrials + 2; ++run) {
    Status status = mesh->run(1, [&](ShardContext &ctx) {
      int64_t handle = ctx.abiHandle();
      int32_t variant = loom_rt_variant_begin(handle, 0, 2);
      if (variant == 0)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      else
        spinFor(std::chrono::milliseconds(2));
      loom_rt_variant_end(handle, 0);
      ran.push_back(variant);
      return Status::success();
    });
    ASSERT_TRUE(status.ok()) << status.message();
  }
  EXPECT_EQ(ran, (std::vector<int32_t>{0, 1, 0, 1, 0, 0}));
  MeshStats stats = mesh->stats();
  ASSERT_EQ(stats.shards.size(), 1u);
  ASSERT_EQ(stats.shards[0].variants.size(), 1u);
  const VariantStats &site = stats.shards[0].variants[0];
  EXPECT_LT(site.best[0], 1'000'000);
  EXPECT_GE(site.best[1], 2'000'000);
}

//===----------------------------------------------------------------------===//
// SpinBarrier
//===----------------------------------------------------------------------===//

TEST(SpinBarrier, EveryRoundSeesEveryWrite) {
  Watchdog watchdog("SpinBarrier rounds", std::chrono::seconds(60));
  for (int n : {2, 3, 10}) {
    SpinBarrier barrier(n);
    constexpr int kRounds = 500;
    std::vector<int64_t> slots(n, -1);
    std::atomic<int> mismatches{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < n; ++t) {
      threads.emplace_back([&, t] {
        for (int round = 0; round < kRounds; ++round) {
          slots[t] = round;
          ASSERT_TRUE(barrier.arriveAndWait());
          for (int other = 0; other < n; ++other)
            if (slots[other] != round)
              ++mismatches;
          ASSERT_TRUE(barrier.arriveAndWait());
        }
      });
    }
    for (std::thread &thread : threads)
      thread.join();
    EXPECT_EQ(mismatches.load(), 0) << n << " threads";
  }
}

TEST(SpinBarrier, AbortReleasesWaitersAndLaterArrivals) {
  Watchdog watchdog("SpinBarrier abort", std::chrono::seconds(30));
  constexpr int kParticipants = 4;
  SpinBarrier barrier(kParticipants);
  std::atomic<int> released{0};
  std::vector<std::thread> waiters;
  // One participant never arrives: without abort() they would wait forever.
  for (int t = 0; t < kParticipants - 1; ++t) {
    waiters.emplace_back([&] {
      EXPECT_FALSE(barrier.arriveAndWait());
      ++released;
    });
  }
  // Long enough for the waiters to pass the spin and yield phases and sleep.
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(released.load(), 0);
  barrier.abort();
  for (std::thread &waiter : waiters)
    waiter.join();
  EXPECT_EQ(released.load(), kParticipants - 1);
  EXPECT_TRUE(barrier.aborted());
  EXPECT_FALSE(barrier.arriveAndWait());

  barrier.reset();
  std::vector<std::thread> again;
  std::atomic<int> completed{0};
  for (int t = 0; t < kParticipants; ++t)
    again.emplace_back([&] { completed += barrier.arriveAndWait() ? 1 : 0; });
  for (std::thread &thread : again)
    thread.join();
  EXPECT_EQ(completed.load(), kParticipants);
}

//===----------------------------------------------------------------------===//
// Creating and running a mesh
//===----------------------------------------------------------------------===//

TEST(ThreadMesh, RejectsBadShardCounts) {
  for (int64_t bad : {int64_t(0), int64_t(-3)}) {
    Result<std::unique_ptr<ThreadMesh>> mesh = ThreadMesh::create(bad);
    ASSERT_FALSE(mesh.ok());
    EXPECT_EQ(mesh.message(),
              "the shard count must be positive, got " + std::to_string(bad));
  }
  Result<std::unique_ptr<ThreadMesh>> tooMany =
      ThreadMesh::create(ThreadMesh::kMaxShards + 1);
  ASSERT_FALSE(tooMany.ok());
  EXPECT_NE(tooMany.message().find("at most 1024 shards"), std::string::npos)
      << tooMany.message();
}

TEST(ThreadMesh, RejectsBadRuns) {
  auto mesh = makeMesh(2);
  Status negative =
      mesh->run(-1, [](ShardContext &) { return Status::success(); });
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.message(), "the batch size must not be negative, got -1");
  Status empty = mesh->run(4, ShardBody());
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.message(), "run() needs a body");
}

TEST(ThreadMesh, EachShardRunsOnceOnItsLanes) {
  auto mesh = makeMesh(3);
  std::vector<int64_t> begin(3, -1), end(3, -1), calls(3, 0);
  std::vector<int64_t> handle(3, 0);
  Status status = mesh->run(10, [&](ShardContext &ctx) {
    EXPECT_EQ(ctx.numShards, 3);
    EXPECT_EQ(ctx.mesh->numShards(), 3);
    begin[ctx.shard] = ctx.laneBegin;
    end[ctx.shard] = ctx.laneEnd;
    ++calls[ctx.shard];
    handle[ctx.shard] = ctx.abiHandle();
    EXPECT_EQ(&ShardContext::fromAbiHandle(ctx.abiHandle()), &ctx);
    return Status::success();
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(begin, (std::vector<int64_t>{0, 4, 7}));
  EXPECT_EQ(end, (std::vector<int64_t>{4, 7, 10}));
  EXPECT_EQ(calls, (std::vector<int64_t>{1, 1, 1}));
  EXPECT_NE(handle[0], handle[1]);
}

TEST(ThreadMesh, EmptyShardTakesPartInCollectives) {
  auto mesh = makeMesh(3);
  std::vector<int64_t> lanes(3, -1), total(3, -1);
  std::vector<double> sums(3, -1);
  std::vector<double> values = {1.5, 2.25};
  Status status = mesh->run(2, [&](ShardContext &ctx) {
    int64_t h = ctx.abiHandle();
    lanes[ctx.shard] = ctx.numLanes();
    total[ctx.shard] =
        loom_rt_all_reduce_i64(h, LOOM_REDUCE_SUM, ctx.numLanes());
    sums[ctx.shard] = loom_rt_ordered_sum_f64(h, values.data() + ctx.laneBegin,
                                              ctx.numLanes());
    return Status::success();
  });
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_EQ(lanes, (std::vector<int64_t>{1, 1, 0}));
  EXPECT_EQ(total, (std::vector<int64_t>{2, 2, 2}));
  EXPECT_EQ(sums, (std::vector<double>{3.75, 3.75, 3.75}));
}

TEST(ThreadMesh, RefusesRunFromItsOwnShard) {
  auto mesh = makeMesh(2);
  Status status = mesh->run(2, [&](ShardContext &ctx) {
    if (ctx.shard != 0)
      return Status::success();
    return mesh->run(2, [](ShardContext &) { return Status::success(); });
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "shard 0: a shard called run() on its own "
                              "mesh, which would wait for itself");
}

//===----------------------------------------------------------------------===//
// Every collective against the sequential answer
//===----------------------------------------------------------------------===//

class Collectives : public ::testing::TestWithParam<int> {
public:
  void SetUp() override { mesh = makeMesh(GetParam()); }

  /// Runs `perShard(ctx)` on every shard and checks that every shard
  /// returned `expected` (bit for bit for floats).
  template <typename T, typename PerShard>
  void expectEverywhere(int64_t batch, T expected, PerShard perShard,
                        const std::string &what) {
    std::vector<T> results(mesh->numShards());
    Status status = mesh->run(batch, [&](ShardContext &ctx) {
      results[ctx.shard] = perShard(ctx);
      return Status::success();
    });
    ASSERT_TRUE(status.ok()) << what << ": " << status.message();
    for (int s = 0; s < mesh->numShards(); ++s)
      EXPECT_TRUE(sameBits(results[s], expected))
          << what << ", batch " << batch << ", shard " << s << " of "
          << mesh->numShards() << ": got " << results[s] << ", expected "
          << expected;
  }

  std::unique_ptr<ThreadMesh> mesh;
};

const int64_t kBatches[] = {2, 37, 1000};

TEST_P(Collectives, I1OrAnd) {
  for (int64_t batch : kBatches) {
    for (int pattern = 0; pattern < 4; ++pattern) {
      // all false, only the last true, all true, all but the last true
      std::vector<int32_t> flags(batch, pattern >= 2 ? 1 : 0);
      if (pattern == 1)
        flags.back() = 1;
      if (pattern == 3)
        flags.back() = 0;
      int32_t any = 0, all = 1;
      for (int32_t f : flags) {
        any |= f;
        all &= f;
      }
      for (int32_t kind : {LOOM_REDUCE_OR, LOOM_REDUCE_AND}) {
        bool isOr = kind == LOOM_REDUCE_OR;
        expectEverywhere<int32_t>(
            batch, isOr ? any : all,
            [&](ShardContext &ctx) {
              int32_t local = isOr ? 0 : 1;
              for (int64_t l = ctx.laneBegin; l < ctx.laneEnd; ++l)
                local = isOr ? (local | flags[l]) : (local & flags[l]);
              return loom_rt_all_reduce_i1(ctx.abiHandle(), kind, local);
            },
            isOr ? "i1 OR" : "i1 AND");
      }
    }
  }
}

TEST_P(Collectives, I1AcceptsSignExtendedTrue) {
  expectEverywhere<int32_t>(
      4, 1,
      [](ShardContext &ctx) {
        return loom_rt_all_reduce_i1(ctx.abiHandle(), LOOM_REDUCE_AND, -1);
      },
      "i1 AND of -1");
}

template <typename T>
std::vector<T> intValues(int64_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> values(count);
  // Near the extremes, so sums wrap.
  for (T &v : values)
    v = static_cast<T>(rng()) |
        (rng() & 1 ? std::numeric_limits<T>::max() - 7 : T(0));
  return values;
}

template <typename T>
T wrappingAdd(T a, T b) {
  using U = std::make_unsigned_t<T>;
  return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
}

template <typename T, typename Call>
void checkIntReductions(Collectives &test, const char *type, Call call) {
  for (int64_t batch : kBatches) {
    std::vector<T> values = intValues<T>(batch, 42 + batch);
    T sum = 0, max = std::numeric_limits<T>::min(),
      min = std::numeric_limits<T>::max();
    for (T v : values) {
      sum = wrappingAdd(sum, v);
      max = std::max(max, v);
      min = std::min(min, v);
    }
    struct Case {
      int32_t kind;
      T expected;
      T identity;
      const char *name;
    } cases[] = {{LOOM_REDUCE_SUM, sum, T(0), "SUM"},
                 {LOOM_REDUCE_MAX, max, std::numeric_limits<T>::min(), "MAX"},
                 {LOOM_REDUCE_MIN, min, std::numeric_limits<T>::max(), "MIN"}};
    for (const Case &c : cases) {
      test.expectEverywhere<T>(
          batch, c.expected,
          [&](ShardContext &ctx) {
            T local = c.identity;
            for (int64_t l = ctx.laneBegin; l < ctx.laneEnd; ++l) {
              T v = values[l];
              local = c.kind == LOOM_REDUCE_SUM   ? wrappingAdd(local, v)
                      : c.kind == LOOM_REDUCE_MAX ? std::max(local, v)
                                                  : std::min(local, v);
            }
            return call(ctx.abiHandle(), c.kind, local);
          },
          std::string(type) + " " + c.name);
    }
  }
}

TEST_P(Collectives, I32SumWrapsMaxMinSigned) {
  checkIntReductions<int32_t>(*this, "i32", loom_rt_all_reduce_i32);
}

TEST_P(Collectives, I64SumWrapsMaxMinSigned) {
  checkIntReductions<int64_t>(*this, "i64", loom_rt_all_reduce_i64);
}

template <typename T, typename Call>
void checkFloatMaxMin(Collectives &test, const char *type, Call call) {
  for (int64_t batch : kBatches) {
    for (int variant = 0; variant < 3; ++variant) {
      std::vector<T> values = wildValues<T>(batch, 7 + batch, 30);
      if (variant == 1) {
        // signed zeros only: MAX must say +0.0, MIN -0.0
        for (size_t i = 0; i < values.size(); ++i)
          values[i] = (i % 3 == 1) ? T(0.0) : T(-0.0);
      } else if (variant == 2) {
        // one NaN, on the last lane
        values.back() = std::numeric_limits<T>::quiet_NaN();
      }
      for (int32_t kind : {LOOM_REDUCE_MAX, LOOM_REDUCE_MIN}) {
        bool isMax = kind == LOOM_REDUCE_MAX;
        T expected = referenceMaxMin(values, isMax);
        test.expectEverywhere<T>(
            batch, expected,
            [&](ShardContext &ctx) {
              std::vector<T> mine(values.begin() + ctx.laneBegin,
                                  values.begin() + ctx.laneEnd);
              return call(ctx.abiHandle(), kind, referenceMaxMin(mine, isMax));
            },
            std::string(type) + (isMax ? " MAX" : " MIN") + " variant " +
                std::to_string(variant));
      }
    }
  }
}

TEST_P(Collectives, F32MaxMinNaNAndSignedZero) {
  checkFloatMaxMin<float>(*this, "f32", loom_rt_all_reduce_f32);
}

TEST_P(Collectives, F64MaxMinNaNAndSignedZero) {
  checkFloatMaxMin<double>(*this, "f64", loom_rt_all_reduce_f64);
}

template <typename T, typename Call>
void checkOrderedSum(Collectives &test, const char *type, int maxExponent,
                     Call call) {
  for (int64_t batch : kBatches) {
    std::vector<T> values = wildValues<T>(batch, 1234 + batch, maxExponent);
    test.expectEverywhere<T>(
        batch, sequentialSum(values),
        [&](ShardContext &ctx) {
          return call(ctx.abiHandle(), values.data() + ctx.laneBegin,
                      ctx.numLanes());
        },
        std::string(type) + " ordered sum");
  }
}

TEST_P(Collectives, F32OrderedSumIsTheSequentialSum) {
  checkOrderedSum<float>(*this, "f32", 40, loom_rt_ordered_sum_f32);
}

TEST_P(Collectives, F64OrderedSumIsTheSequentialSum) {
  checkOrderedSum<double>(*this, "f64", 30, loom_rt_ordered_sum_f64);
}

TEST_P(Collectives, OrderedSumOfNothingIsPositiveZero) {
  expectEverywhere<double>(
      0, 0.0,
      [](ShardContext &ctx) {
        return loom_rt_ordered_sum_f64(ctx.abiHandle(), nullptr, 0);
      },
      "empty f64 sum");
}

TEST_P(Collectives, OkIsTrueInANormalRun) {
  expectEverywhere<int32_t>(
      5, 1, [](ShardContext &ctx) { return loom_rt_ok(ctx.abiHandle()); },
      "loom_rt_ok");
}

INSTANTIATE_TEST_SUITE_P(Shards, Collectives, ::testing::Values(1, 2, 3, 10),
                         [](const ::testing::TestParamInfo<int> &info) {
                           return std::to_string(info.param);
                         });

/// The data is such that adding per-shard partial sums would give other
/// bits (checked, so the test below cannot pass by luck), yet every shard
/// count gives the sequential sum.
template <typename T, typename Call>
void checkSumBitsForAllShardCounts(int maxExponent, Call call) {
  const int64_t batch = 1001;
  std::vector<T> values = wildValues<T>(batch, 99, maxExponent);
  T expected = sequentialSum(values);

  T partials = 0;
  for (int32_t s = 0; s < 3; ++s) {
    LaneRange r = splitLanes(batch, 3, s);
    T partial = 0;
    for (int64_t l = r.begin; l < r.end; ++l)
      partial += values[l];
    partials += partial;
  }
  ASSERT_FALSE(sameBits(partials, expected))
      << "the data does not tell summation orders apart";

  for (int n = 1; n <= 12; ++n) {
    auto mesh = makeMesh(n);
    std::vector<T> results(n);
    Status status = mesh->run(batch, [&](ShardContext &ctx) {
      results[ctx.shard] =
          call(ctx.abiHandle(), values.data() + ctx.laneBegin, ctx.numLanes());
      return Status::success();
    });
    ASSERT_TRUE(status.ok()) << status.message();
    for (int s = 0; s < n; ++s)
      EXPECT_TRUE(sameBits(results[s], expected))
          << "shard " << s << " of " << n << ": " << results[s] << " vs "
          << expected;
  }
}

TEST(OrderedSum, F32BitIdenticalForOneToTwelveShards) {
  checkSumBitsForAllShardCounts<float>(40, loom_rt_ordered_sum_f32);
}

TEST(OrderedSum, F64BitIdenticalForOneToTwelveShards) {
  checkSumBitsForAllShardCounts<double>(30, loom_rt_ordered_sum_f64);
}

//===----------------------------------------------------------------------===//
// Reuse and concurrent callers
//===----------------------------------------------------------------------===//

/// One run of a small program with two collectives: the sum of lane indices
/// (plus `offset` per lane) and a global-sync loop whose trip count is the
/// largest lane's. Returns what went wrong, or an empty string.
std::string runSmallProgram(ThreadMesh &mesh, int64_t batch, int64_t offset) {
  std::vector<int64_t> sums(mesh.numShards(), -1);
  std::vector<int64_t> trips(mesh.numShards(), -1);
  Status status = mesh.run(batch, [&](ShardContext &ctx) {
    int64_t h = ctx.abiHandle();
    int64_t local = 0;
    for (int64_t l = ctx.laneBegin; l < ctx.laneEnd; ++l)
      local += l + offset;
    sums[ctx.shard] = loom_rt_all_reduce_i64(h, LOOM_REDUCE_SUM, local);
    // Lane l needs l % 5 iterations; every shard loops until all are done.
    int64_t iterations = 0;
    for (;;) {
      int32_t anyActive = 0;
      for (int64_t l = ctx.laneBegin; l < ctx.laneEnd; ++l)
        anyActive |= (l % 5) > iterations;
      int32_t more = loom_rt_all_reduce_i1(h, LOOM_REDUCE_OR, anyActive);
      if (more < 0)
        return Status::error("aborted");
      if (!more)
        break;
      ++iterations;
    }
    trips[ctx.shard] = iterations;
    return Status::success();
  });
  if (!status.ok())
    return "run failed: " + status.message();
  int64_t expectedSum = batch * (batch - 1) / 2 + batch * offset;
  int64_t expectedTrips = std::max<int64_t>(0, std::min<int64_t>(batch, 5) - 1);
  std::string problems;
  for (int s = 0; s < mesh.numShards(); ++s) {
    if (sums[s] != expectedSum)
      problems += "shard " + std::to_string(s) + " sum " +
                  std::to_string(sums[s]) +
                  " != " + std::to_string(expectedSum) + "; ";
    if (trips[s] != expectedTrips)
      problems += "shard " + std::to_string(s) + " trips " +
                  std::to_string(trips[s]) +
                  " != " + std::to_string(expectedTrips) + "; ";
  }
  return problems;
}

TEST(ThreadMesh, ReusedForManyRuns) {
  Watchdog watchdog("many runs", std::chrono::seconds(120));
  for (int n : {1, 3, 10}) {
    auto mesh = makeMesh(n);
    int runs = n == 10 ? 300 : 1500;
    for (int r = 0; r < runs; ++r)
      ASSERT_EQ(runSmallProgram(*mesh, r % 23, r), "") << "run " << r;
    EXPECT_EQ(mesh->stats().runs, runs);
  }
}

TEST(ThreadMesh, ConcurrentCallersAreSerialized) {
  Watchdog watchdog("concurrent callers", std::chrono::seconds(120));
  for (int n : {2, 3}) {
    auto mesh = makeMesh(n);
    constexpr int kCallers = 4, kRunsEach = 150;
    std::atomic<int> failures{0};
    std::vector<std::thread> callers;
    for (int c = 0; c < kCallers; ++c) {
      callers.emplace_back([&, c] {
        for (int r = 0; r < kRunsEach; ++r)
          if (!runSmallProgram(*mesh, 7 + c, c * 1000 + r).empty())
            ++failures;
      });
    }
    for (std::thread &caller : callers)
      caller.join();
    EXPECT_EQ(failures.load(), 0);
    EXPECT_EQ(mesh->stats().runs, kCallers * kRunsEach);
  }
}

TEST(ThreadMesh, DestroyedWhileIdleOrAsleep) {
  Watchdog watchdog("creating and destroying meshes", std::chrono::seconds(60));
  for (int i = 0; i < 40; ++i) {
    auto mesh = makeMesh(i % 2 ? 10 : 3);
    if (i % 3 == 0) {
      ASSERT_EQ(runSmallProgram(*mesh, 9, 0), "");
    }
    // Some pools are destroyed awake, some after their threads went to
    // sleep.
    if (i % 4 == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

//===----------------------------------------------------------------------===//
// Fault injection
//===----------------------------------------------------------------------===//

/// One shard fails after `roundsFirst` collective rounds (after sleeping
/// `delay`, so the others have gone from spinning to sleeping), while all
/// other shards loop on a predicate all-reduce that never turns false by
/// itself. Returns the time from the failure to run() returning.
Clock::duration injectFault(ThreadMesh &mesh, int32_t failing, int roundsFirst,
                            std::chrono::milliseconds delay) {
  std::atomic<int64_t> failedAt{0};
  std::vector<int32_t> sawAbort(mesh.numShards(), 0);
  Status status = mesh.run(mesh.numShards() * 3, [&](ShardContext &ctx) {
    int64_t h = ctx.abiHandle();
    if (ctx.shard == failing) {
      for (int r = 0; r < roundsFirst; ++r)
        if (loom_rt_all_reduce_i1(h, LOOM_REDUCE_OR, 1) != 1)
          return Status::error("the rounds before the fault failed");
      std::this_thread::sleep_for(delay);
      failedAt = Clock::now().time_since_epoch().count();
      return Status::error("injected fault");
    }
    while (loom_rt_all_reduce_i1(h, LOOM_REDUCE_OR, 1) == 1) {
    }
    sawAbort[ctx.shard] = loom_rt_ok(h) == 0;
    // What a lowered program's wrapper does when its loop ended on an
    // abort: report it. run() must still report the cause.
    return Status::error("aborted");
  });
  Clock::time_point returned = Clock::now();
  EXPECT_FALSE(status.ok());
  std::string expected =
      mesh.numShards() > 1
          ? "shard " + std::to_string(failing) + ": injected fault"
          : "injected fault";
  EXPECT_EQ(status.message(), expected);
  for (int s = 0; s < mesh.numShards(); ++s)
    if (s != failing) {
      EXPECT_TRUE(sawAbort[s]) << "shard " << s;
    }
  return returned - Clock::time_point(Clock::duration(failedAt.load()));
}

TEST(FaultInjection, AFailingShardReleasesTheOthersWithinASecond) {
  Clock::duration worst{0};
  for (int n : {1, 2, 3, 10}) {
    auto mesh = makeMesh(n);
    // A pool shard and the caller's shard, failing after spinning rounds
    // or after the others fell asleep.
    for (int32_t failing : {n - 1, 0}) {
      for (int delayMs : {0, 30}) {
        Watchdog watchdog("a run with an injected fault",
                          std::chrono::seconds(5));
        Clock::duration latency = injectFault(
            *mesh, failing, 100, std::chrono::milliseconds(delayMs));
        worst = std::max(worst, latency);
        EXPECT_LT(latency, std::chrono::seconds(1))
            << n << " shards, shard " << failing << " fails";
        // The pool is still good.
        EXPECT_EQ(runSmallProgram(*mesh, 11, 0), "") << n << " shards";
      }
    }
  }
  std::printf("[ fault    ] worst error-to-caller latency: %.1f us\n",
              std::chrono::duration<double, std::micro>(worst).count());
}

TEST(FaultInjection, ShardsPollingOkStop) {
  Watchdog watchdog("loom_rt_ok polling", std::chrono::seconds(5));
  auto mesh = makeMesh(3);
  Status status = mesh->run(6, [](ShardContext &ctx) {
    if (ctx.shard == 1) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      return Status::error("disk on fire");
    }
    // A long local loop with no collective, polling at its head.
    while (loom_rt_ok(ctx.abiHandle())) {
    }
    return Status::success();
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "shard 1: disk on fire");
  EXPECT_EQ(runSmallProgram(*mesh, 6, 0), "");
}

TEST(FaultInjection, BadArgumentsFromCompiledCodeFailTheRun) {
  Watchdog watchdog("bad ABI arguments", std::chrono::seconds(5));
  auto mesh = makeMesh(3);
  Status badKind = mesh->run(3, [](ShardContext &ctx) {
    // A compiler bug: SUM is not a predicate reduction.
    int32_t r = loom_rt_all_reduce_i1(ctx.abiHandle(), LOOM_REDUCE_SUM, 1);
    return r < 0 ? Status::error("aborted") : Status::success();
  });
  ASSERT_FALSE(badKind.ok());
  EXPECT_NE(badKind.message().find(": loom_rt_all_reduce_i1: unsupported "
                                   "reduction kind 1 (expected OR or AND)"),
            std::string::npos)
      << badKind.message();

  Status floatSum = mesh->run(3, [](ShardContext &ctx) {
    loom_rt_all_reduce_f32(ctx.abiHandle(), LOOM_REDUCE_SUM, 1.0f);
    return Status::success();
  });
  ASSERT_FALSE(floatSum.ok());
  EXPECT_NE(floatSum.message().find("unsupported reduction kind 1 (expected "
                                    "MAX or MIN)"),
            std::string::npos)
      << floatSum.message();

  Status negative = mesh->run(3, [](ShardContext &ctx) {
    double x = 1;
    double s =
        loom_rt_ordered_sum_f64(ctx.abiHandle(), &x, ctx.shard == 2 ? -4 : 1);
    // The others wait for shard 2 in the sum and are released.
    EXPECT_TRUE(std::isnan(s));
    return Status::success();
  });
  ASSERT_FALSE(negative.ok());
  EXPECT_EQ(negative.message(),
            "shard 2: loom_rt_ordered_sum_f64: negative count -4");
  EXPECT_EQ(runSmallProgram(*mesh, 5, 0), "");
}

TEST(FaultInjection, CancelStopsARunThatWouldNeverEnd) {
  Watchdog watchdog("cancel", std::chrono::seconds(5));
  auto mesh = makeMesh(3);
  // Nothing to cancel: the next run is not affected.
  mesh->cancel();
  ASSERT_EQ(runSmallProgram(*mesh, 4, 0), "");

  std::atomic<bool> started{false};
  std::thread canceller([&] {
    while (!started)
      std::this_thread::yield();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    mesh->cancel();
  });
  Status status = mesh->run(3, [&](ShardContext &ctx) {
    started = true;
    while (loom_rt_all_reduce_i1(ctx.abiHandle(), LOOM_REDUCE_OR, 1) == 1) {
    }
    return Status::success();
  });
  canceller.join();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "cancelled");
  EXPECT_EQ(runSmallProgram(*mesh, 4, 0), "");
}

/// A lowering bug: one shard skips the last collective. Whichever shard
/// notices first (the one finishing, or the one waiting), the run fails
/// instead of hanging.
TEST(FaultInjection, MismatchedCollectivesFailInsteadOfHanging) {
  for (int n : {2, 3, 10}) {
    auto mesh = makeMesh(n);
    for (int32_t skipping : {n - 1, 0}) {
      for (int delayMs : {0, 10}) {
        Watchdog watchdog("mismatched collectives", std::chrono::seconds(5));
        Status status = mesh->run(n, [&](ShardContext &ctx) {
          int rounds = ctx.shard == skipping ? 2 : 3;
          // With a delay, the skipping shard finishes after the others wait;
          // without, either may come first.
          if (ctx.shard == skipping)
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
          for (int r = 0; r < rounds; ++r)
            if (loom_rt_all_reduce_i1(ctx.abiHandle(), LOOM_REDUCE_OR, 1) != 1)
              return Status::error("aborted");
          return Status::success();
        });
        ASSERT_FALSE(status.ok()) << n << " shards, shard " << skipping;
        EXPECT_NE(status.message().find("the shards' collectives do not match"),
                  std::string::npos)
            << status.message();
        EXPECT_EQ(runSmallProgram(*mesh, 2 * n, 0), "");
      }
    }
  }
}

TEST(SpinBarrier, DepartureStrandsWaiters) {
  Watchdog watchdog("SpinBarrier depart", std::chrono::seconds(5));
  SpinBarrier barrier(3);
  // Departing between rounds strands nobody yet...
  std::thread early([&] { EXPECT_TRUE(barrier.depart()); });
  early.join();
  EXPECT_FALSE(barrier.stranded());
  // ...but whoever arrives next waits for it in vain.
  EXPECT_FALSE(barrier.arriveAndWait());
  EXPECT_TRUE(barrier.stranded());
  barrier.reset();
  EXPECT_FALSE(barrier.stranded());

  // A waiter, then the departure: whichever of the two the barrier sees
  // first, the waiter is released and the barrier is stranded.
  std::thread waiter([&] { EXPECT_FALSE(barrier.arriveAndWait()); });
  std::this_thread::sleep_for(std::chrono::milliseconds(10));
  barrier.depart();
  waiter.join();
  EXPECT_TRUE(barrier.stranded());
}

#if defined(__cpp_exceptions)
TEST(FaultInjection, AThrowingBodyBecomesAnError) {
  Watchdog watchdog("throwing body", std::chrono::seconds(5));
  auto mesh = makeMesh(2);
  Status status = mesh->run(2, [](ShardContext &ctx) -> Status {
    if (ctx.shard == 1)
      throw std::runtime_error("boom");
    while (loom_rt_all_reduce_i1(ctx.abiHandle(), LOOM_REDUCE_OR, 1) == 1) {
    }
    return Status::success();
  });
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "shard 1: uncaught exception: boom");
  EXPECT_EQ(runSmallProgram(*mesh, 4, 0), "");
}
#endif

//===----------------------------------------------------------------------===//
// Counters
//===----------------------------------------------------------------------===//

TEST(Counters, LoopsAndCollectivesPerShard) {
  auto mesh = makeMesh(3);
  auto body = [](ShardContext &ctx) {
    int64_t h = ctx.abiHandle();
    // Loop 0: 5 iterations, every lane active.
    for (int i = 0; i < 5; ++i)
      loom_rt_count_iteration(h, 0, ctx.numLanes());
    // Loop 2: shard-dependent trip count, one active lane.
    for (int i = 0; i <= ctx.shard; ++i)
      loom_rt_count_iteration(h, 2, 1);
    // Ids the runtime does not record.
    loom_rt_count_iteration(h, -1, 1);
    loom_rt_count_iteration(h, ShardStats::kMaxLoopId, 1);
    for (int i = 0; i < 3; ++i)
      loom_rt_all_reduce_i1(h, LOOM_REDUCE_OR, 0);
    double x = 1;
    loom_rt_ordered_sum_f64(h, &x, 1);
    return Status::success();
  };
  ASSERT_TRUE(mesh->run(10, body).ok());
  MeshStats stats = mesh->stats();
  EXPECT_EQ(stats.runs, 1);
  ASSERT_EQ(stats.shards.size(), 3u);
  EXPECT_EQ(stats.numLoops(), 3u);
  const int64_t lanes[] = {4, 3, 3};
  for (int s = 0; s < 3; ++s) {
    const ShardStats &shard = stats.shards[s];
    EXPECT_EQ(shard.lanes, lanes[s]);
    EXPECT_EQ(shard.collectives, 4);
    ASSERT_EQ(shard.loops.size(), 3u);
    EXPECT_EQ(shard.loops[0].iterations, 5);
    EXPECT_EQ(shard.loops[0].activeLaneIterations, 5 * lanes[s]);
    EXPECT_EQ(shard.loops[1].iterations, 0);
    EXPECT_EQ(shard.loops[2].iterations, s + 1);
    EXPECT_EQ(shard.loops[2].activeLaneIterations, s + 1);
  }
  EXPECT_EQ(stats.loopTotal(0).iterations, 15);
  EXPECT_EQ(stats.loopTotal(0).activeLaneIterations, 50);
  EXPECT_EQ(stats.loopTotal(2).iterations, 6);
  EXPECT_EQ(stats.loopTotal(7).iterations, 0);

  // They accumulate over runs until reset.
  ASSERT_TRUE(mesh->run(10, body).ok());
  stats = mesh->stats();
  EXPECT_EQ(stats.runs, 2);
  EXPECT_EQ(stats.shards[1].collectives, 8);
  EXPECT_EQ(stats.loopTotal(0).iterations, 30);

  mesh->resetStats();
  stats = mesh->stats();
  EXPECT_EQ(stats.runs, 0);
  EXPECT_EQ(stats.numLoops(), 0u);
  for (const ShardStats &shard : stats.shards)
    EXPECT_EQ(shard.collectives, 0);
}

TEST(Counters, CollectivesThatFoundTheMeshAbortedCount) {
  auto mesh = makeMesh(2);
  Status status = mesh->run(2, [](ShardContext &ctx) {
    if (ctx.shard == 1)
      return Status::error("stop");
    int64_t h = ctx.abiHandle();
    while (loom_rt_all_reduce_i1(h, LOOM_REDUCE_OR, 1) == 1) {
    }
    loom_rt_all_reduce_i1(h, LOOM_REDUCE_OR, 1);
    return Status::success();
  });
  ASSERT_FALSE(status.ok());
  MeshStats stats = mesh->stats();
  EXPECT_EQ(stats.shards[0].collectives, 2);
  EXPECT_EQ(stats.shards[1].collectives, 0);
}

} // namespace
