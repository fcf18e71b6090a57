//===- Barrier.cpp - Spin-then-yield waiting and an abortable barrier -----===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Barrier.h"

#include <algorithm>

#if defined(__linux__)
#include <sched.h>
#endif

namespace loom {

int availableCpus() {
#if defined(__linux__)
  // hardware_concurrency() counts the host's CPUs; a container or a
  // `taskset` may give this process fewer, and oversubscription is about
  // those.
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    return std::max(1, CPU_COUNT(&set));
#endif
  return std::max(1u, std::thread::hardware_concurrency());
}

namespace {

/// Pause instructions per microsecond on this core. A pause takes from ~3 ns
/// to ~70 ns (measured on the 2-core AMD EPYC VMs this project runs on), so
/// a fixed spin count means anything from 6 us to 140 us of spinning: spin
/// budgets are set in time and converted once. The best of a few short
/// samples, so a preemption during one only makes spinning shorter.
int pausesPerMicrosecond() {
  using Clock = std::chrono::steady_clock;
  constexpr int kSample = 128;
  double bestNs = 1e9;
  for (int trial = 0; trial < 3; ++trial) {
    auto start = Clock::now();
    for (int i = 0; i < kSample; ++i)
      cpuRelax();
    double ns =
        std::chrono::duration<double, std::nano>(Clock::now() - start).count() /
        kSample;
    bestNs = std::min(bestNs, ns);
  }
  return std::max(1, static_cast<int>(1000.0 / std::max(bestNs, 0.1)));
}

} // namespace

WaitPolicy WaitPolicy::forParticipants(int participants) {
  static const int cpus = availableCpus();
  static const int perMicrosecond = pausesPerMicrosecond();
  WaitPolicy policy;
  // ~2 us of spinning catches a partner that is merely finishing its
  // iteration; past that it was probably descheduled, and yielding (a
  // syscall that returns at once when the core is otherwise idle) costs
  // little more than spinning while it lets a descheduled partner run. With
  // more participants than CPUs some partner is always descheduled: spin
  // only a few pauses, for one that is just arriving.
  policy.spins = participants <= cpus ? 2 * perMicrosecond
                                      : std::max(4, perMicrosecond / 4);
  // Rounds of a global-sync loop take microseconds; a wait past 200 us is a
  // shard that ran ahead (or an idle pool), and sleeping hands its core to
  // the shards still working.
  policy.yieldFor = std::chrono::microseconds(200);
  return policy;
}

SpinBarrier::SpinBarrier(int participants)
    : participants_(std::max(1, participants)),
      policy_(WaitPolicy::forParticipants(participants_)),
      remaining_(participants_) {}

bool SpinBarrier::arriveAndWait() {
  if (aborted_.load(std::memory_order_acquire))
    return false;
  // The generation cannot change before this thread arrives, so reading it
  // first is race-free.
  uint64_t generation = generation_.load(std::memory_order_acquire);
  // The last arrival acquires every earlier arrival's writes through the
  // release sequence of this counter. seq_cst (the same instruction on x86)
  // for the handshake with depart().
  if (remaining_.fetch_sub(1, std::memory_order_seq_cst) == 1) {
    remaining_.store(participants_, std::memory_order_relaxed);
    // Publishes the re-armed count and all arrivals' writes to the waiters.
    generation_.fetch_add(1, std::memory_order_release);
    parker_.wakeAll();
    return true;
  }
  // A participant that departed without arriving will never arrive: this
  // round cannot complete. Either this load sees the departure, or depart()
  // sees this arrival. A departure seen here may also come from a partner
  // that arrived after this thread, completed the round and left at once;
  // it saw the new generation before departing, so then this thread (which
  // synchronizes with the departure) sees it too, and the round stands.
  if (departed_.load(std::memory_order_seq_cst) != 0 &&
      generation_.load(std::memory_order_seq_cst) == generation) {
    strand();
    return false;
  }
  parker_.waitUntil(
      [&] {
        return generation_.load(std::memory_order_acquire) != generation ||
               aborted_.load(std::memory_order_acquire);
      },
      policy_);
  // A completed round wins over a concurrent abort: this waiter's partners
  // all arrived, so its view of the round is consistent.
  return generation_.load(std::memory_order_acquire) != generation;
}

void SpinBarrier::abort() {
  aborted_.store(true, std::memory_order_release);
  parker_.wakeAll();
}

bool SpinBarrier::depart() {
  departed_.fetch_add(1, std::memory_order_seq_cst);
  // Between rounds the count is re-armed (the last arrival re-arms it before
  // it releases anyone, so a participant that saw its round complete sees
  // it re-armed); anything less is a round some participant entered and
  // this one never will.
  if (remaining_.load(std::memory_order_seq_cst) != participants_) {
    strand();
    return false;
  }
  return true;
}

void SpinBarrier::strand() {
  stranded_.store(true, std::memory_order_release);
  abort();
}

void SpinBarrier::reset() {
  remaining_.store(participants_, std::memory_order_relaxed);
  departed_.store(0, std::memory_order_relaxed);
  stranded_.store(false, std::memory_order_relaxed);
  aborted_.store(false, std::memory_order_release);
}

} // namespace loom
