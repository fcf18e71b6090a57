//===- MeshBench.cpp - The cost of a collective round on the thread mesh --===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// In `loop-sync=global` every iteration of a divergent loop ends in a
// predicate all-reduce, so the round trip of one collective is what the
// global mode costs per iteration. This measures:
//
//   - MeshAllReduceI1/N: loom_rt_all_reduce_i1 through the C ABI on an
//     N-shard ThreadMesh, as compiled code calls it;
//   - SpinBarrierRound/N and StdBarrierRound/N: a bare round (write a slot,
//     one barrier, read every slot) on raw threads, with Loom's SpinBarrier
//     and with libstdc++'s std::barrier, which sleeps in the kernel;
//   - MeshRunEmpty/N: what one run() costs beyond its body (waking the
//     pool and waiting for it).
//
// Each benchmark iteration runs kRounds rounds; `per_round` is the time of
// one, in seconds. With more shards than cores the threads take turns on
// the cores, so the 10-shard numbers measure the scheduler as much as the
// barrier; on a shared machine all numbers move with the load.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/ABI.h"
#include "loom/Runtime/Barrier.h"
#include "loom/Runtime/Mesh.h"

#include <benchmark/benchmark.h>

#include <atomic>
#include <barrier>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

using namespace loom;

namespace {

constexpr int kRounds = 1000;

void setPerRound(benchmark::State &state) {
  state.counters["per_round"] = benchmark::Counter(
      kRounds, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
}

std::unique_ptr<ThreadMesh> makeMesh(int64_t shards) {
  Result<std::unique_ptr<ThreadMesh>> mesh = ThreadMesh::create(shards);
  if (!mesh.ok()) {
    std::fprintf(stderr, "%s\n", mesh.message().c_str());
    std::exit(1);
  }
  return mesh.take();
}

void MeshAllReduceI1(benchmark::State &state) {
  auto mesh = makeMesh(state.range(0));
  for (auto _ : state) {
    Status status = mesh->run(mesh->numShards(), [](ShardContext &ctx) {
      int64_t handle = ctx.abiHandle();
      // The predicate of a loop that runs kRounds iterations on shard 0
      // only: the others are kept going by the collective, as in the seed.
      for (int round = 1;; ++round) {
        int32_t mine = ctx.shard == 0 && round < kRounds;
        int32_t any = loom_rt_all_reduce_i1(handle, LOOM_REDUCE_OR, mine);
        if (any != 1)
          return any == 0 ? Status::success() : Status::error("aborted");
      }
    });
    if (!status.ok())
      state.SkipWithError(status.message().c_str());
  }
  setPerRound(state);
}

/// kRounds rounds of "write my slot, barrier, read every slot" on
/// `participants` threads; the caller's thread is participant 0.
template <typename Barrier, typename Arrive>
void barrierRounds(benchmark::State &state, Barrier &barrier, Arrive arrive) {
  const int participants = static_cast<int>(state.range(0));
  // Double-buffered by round parity, as the mesh does, so one barrier per
  // round suffices.
  std::vector<std::atomic<int>> slots(2 * participants);
  std::atomic<bool> stop{false};
  auto rounds = [&](int self) {
    int64_t seen = 0;
    for (int round = 0; round < kRounds; ++round) {
      int parity = round & 1;
      slots[parity * participants + self].store(round,
                                                std::memory_order_relaxed);
      arrive(barrier);
      for (int other = 0; other < participants; ++other)
        seen += slots[parity * participants + other].load(
            std::memory_order_relaxed);
    }
    benchmark::DoNotOptimize(seen);
  };
  std::vector<std::thread> helpers;
  for (int self = 1; self < participants; ++self) {
    helpers.emplace_back([&, self] {
      for (;;) {
        arrive(barrier); // start of a benchmark iteration, or stop
        if (stop.load(std::memory_order_acquire))
          return;
        rounds(self);
      }
    });
  }
  for (auto _ : state) {
    arrive(barrier);
    rounds(0);
  }
  stop.store(true, std::memory_order_release);
  arrive(barrier);
  for (std::thread &helper : helpers)
    helper.join();
  setPerRound(state);
}

void SpinBarrierRound(benchmark::State &state) {
  SpinBarrier barrier(static_cast<int>(state.range(0)));
  barrierRounds(state, barrier, [](SpinBarrier &b) { b.arriveAndWait(); });
}

void StdBarrierRound(benchmark::State &state) {
  std::barrier<> barrier(state.range(0));
  barrierRounds(state, barrier, [](std::barrier<> &b) { b.arrive_and_wait(); });
}

void MeshRunEmpty(benchmark::State &state) {
  auto mesh = makeMesh(state.range(0));
  for (auto _ : state) {
    Status status = mesh->run(mesh->numShards(),
                              [](ShardContext &) { return Status::success(); });
    if (!status.ok())
      state.SkipWithError(status.message().c_str());
  }
}

// Several repetitions, reported as mean, median and spread: on a shared
// 2-core machine single runs vary a lot.
BENCHMARK(MeshAllReduceI1)
    ->ArgName("shards")
    ->Arg(2)
    ->Arg(4)
    ->Arg(10)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();
BENCHMARK(SpinBarrierRound)
    ->ArgName("threads")
    ->Arg(2)
    ->Arg(4)
    ->Arg(10)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();
BENCHMARK(StdBarrierRound)
    ->ArgName("threads")
    ->Arg(2)
    ->Arg(4)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();
BENCHMARK(MeshRunEmpty)
    ->ArgName("shards")
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(10)
    ->Repetitions(5)
    ->ReportAggregatesOnly(true)
    ->UseRealTime();

} // namespace

BENCHMARK_MAIN();
