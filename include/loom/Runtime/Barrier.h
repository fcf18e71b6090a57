//===- Barrier.h - Spin-then-yield waits, an abortable barrier --*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The CPU thread mesh synchronizes once per collective, and in
// `loop-sync=global` that is once per iteration of every divergent loop, so
// the barrier's round trip is the price of the global mode. libstdc++'s
// std::barrier sleeps in the kernel at once (~15 us a round at 2 threads); a
// waiter that spins on a cache line sees the last arrival within ~0.3 us.
// Pure spinning is wrong too: with more shards than cores (10 shards on 2
// cores) the thread being waited for needs the core the spinner holds, and an
// idle pool must not burn CPU between calls. So every wait here spins with a
// pause instruction for a short bounded time, then yields the core, and
// after a longer bound sleeps on a condition variable that the releasing
// side signals only when someone actually sleeps (one load on the fast path).
//
// std::barrier also cannot be cancelled. SpinBarrier has an abort flag: once
// set, every waiter (current and future) returns false at once, which is how
// one failing shard releases all the others.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_BARRIER_H
#define LOOM_RUNTIME_BARRIER_H

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace loom {

/// One pause instruction (x86 `pause`, AArch64 `yield`): tells the core it is
/// in a spin loop, so a sibling hyperthread gets the pipeline and leaving the
/// loop does not flush it on a memory-order mis-speculation.
inline void cpuRelax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
  asm volatile("yield" ::: "memory");
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);
#endif
}

/// The CPUs this process may run on (its affinity mask on Linux, which is
/// what a container's `nproc` reports), at least 1.
int availableCpus();

/// How long a waiter spins, then yields, before it sleeps.
struct WaitPolicy {
  /// Pause-instruction iterations before the first yield.
  int spins = 0;
  /// Time spent yielding, after the spinning, before sleeping on a
  /// condition variable.
  std::chrono::microseconds yieldFor{0};

  /// The policy for `participants` threads that wait for each other: spin
  /// ~2 us when every participant has a core of its own, otherwise yield
  /// almost at once (the thread being waited for may need this core);
  /// sleep after 200 us either way.
  static WaitPolicy forParticipants(int participants);
};

/// A place where threads wait for a condition that another thread makes
/// true: spin, yield, then sleep. The waker makes the condition true with any
/// atomic store and then calls wakeAll(); wakeAll() costs one load when no
/// one sleeps.
///
/// Yielding only helps when the threads that get the core are the ones being
/// waited for (more shards than cores on an otherwise idle machine: 10
/// shards on 2 cores do a round in ~5 us). When other processes keep the
/// cores busy, a yield hands the core to one of them for a whole time slice,
/// and a waiter that stays runnable also competes with the shard it waits
/// for: measured on a 2-core VM at load 7, yielding for up to 200 us made a
/// round cost 1 to 2.5 ms, going to sleep after the spin 14 to 45 us. So a
/// yield that does not come back within kLongYield turns the yield phase
/// off for this Parker for the next 64 waits, doubling up to 4096 while
/// the machine stays busy; a yield phase without a long yield resets that.
class Parker {
public:
  /// A yield that took longer than this gave the core to someone with work
  /// of its own. (A round that long is slow anyway, so sleeping instead
  /// costs little even when the misjudgement is ours.)
  static constexpr std::chrono::microseconds kLongYield{50};

  /// Returns once `ready()` is true. `ready` reads atomics only.
  template <typename Ready>
  void waitUntil(Ready ready, const WaitPolicy &policy) {
    for (int i = 0; i < policy.spins; ++i) {
      if (ready())
        return;
      cpuRelax();
    }
    if (ready())
      return;
    if (yieldPhaseAllowed() && yieldUntil(ready, policy.yieldFor))
      return;
    sleepUntil(ready);
  }

  /// Wakes every sleeping waiter. Call after making the condition true.
  void wakeAll() {
    // Pairs with the fence in sleepUntil (a Dekker handshake): either this
    // load sees the sleeper's increment, or the sleeper's re-check of the
    // condition sees the store made before this fence.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (sleepers_.load(std::memory_order_relaxed) == 0)
      return;
    // Taking the mutex orders this notify after a sleeper that incremented
    // the count but has not yet blocked: it holds the mutex until it does.
    {
      std::lock_guard<std::mutex> lock(mutex_);
    }
    cv_.notify_all();
  }

private:
  using Clock = std::chrono::steady_clock;

  /// Whether this wait may yield: false while a recent long yield said the
  /// machine is busy. Relaxed and racy on purpose: it is a heuristic.
  bool yieldPhaseAllowed() {
    if (skipYields_.load(std::memory_order_relaxed) <= 0)
      return true;
    skipYields_.fetch_sub(1, std::memory_order_relaxed);
    return false;
  }

  /// Yields until `ready()` (true) or until `budget` ran out or one yield
  /// took too long (false).
  template <typename Ready>
  bool yieldUntil(Ready &ready, std::chrono::microseconds budget) {
    Clock::time_point start = Clock::now();
    Clock::time_point last = start;
    while (!ready()) {
      if (last - start >= budget) {
        penalty_.store(kFirstPenalty, std::memory_order_relaxed);
        return false;
      }
      std::this_thread::yield();
      Clock::time_point now = Clock::now();
      if (now - last >= kLongYield) {
        int penalty = penalty_.load(std::memory_order_relaxed);
        skipYields_.store(penalty, std::memory_order_relaxed);
        penalty_.store(std::min(2 * penalty, kMaxPenalty),
                       std::memory_order_relaxed);
        return ready();
      }
      last = now;
    }
    penalty_.store(kFirstPenalty, std::memory_order_relaxed);
    return true;
  }

  template <typename Ready>
  void sleepUntil(Ready &ready) {
    std::unique_lock<std::mutex> lock(mutex_);
    sleepers_.fetch_add(1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_seq_cst);
    while (!ready())
      cv_.wait(lock);
    sleepers_.fetch_sub(1, std::memory_order_relaxed);
  }

  static constexpr int kFirstPenalty = 64;
  static constexpr int kMaxPenalty = 4096;

  std::mutex mutex_;
  std::condition_variable cv_;
  std::atomic<int> sleepers_{0};
  /// Waits left that skip the yield phase, and how many the next long
  /// yield will skip.
  std::atomic<int> skipYields_{0};
  std::atomic<int> penalty_{kFirstPenalty};
};

/// A reusable barrier for a fixed number of participants with an abort flag.
///
/// It is sense-reversing with a generation counter as the sense: a waiter
/// remembers the generation it arrived in and waits for it to change, so it
/// needs no thread-local state and the barrier can be reused immediately. The
/// last arrival re-arms the count before it publishes the new generation.
/// Writes made before arriveAndWait() are visible to every participant after
/// it returns true.
class SpinBarrier {
public:
  explicit SpinBarrier(int participants);
  SpinBarrier(const SpinBarrier &) = delete;
  SpinBarrier &operator=(const SpinBarrier &) = delete;

  /// Arrives and waits for the other participants. Returns true when the
  /// round completed; false at once, without arriving, once abort() was
  /// called, and false for a waiter released by abort(). After an abort the
  /// participants may disagree about the round that was in flight: the
  /// caller treats false as "stop", not as a result.
  bool arriveAndWait();

  /// Releases every waiter and makes every later arriveAndWait() return
  /// false, until reset().
  void abort();
  bool aborted() const { return aborted_.load(std::memory_order_acquire); }

  /// Says that the calling participant will not arrive again until reset()
  /// (a shard whose body returned). If another participant is waiting for a
  /// round, or arrives later, that round can never complete: the barrier
  /// then aborts itself and marks itself stranded, instead of leaving the
  /// others waiting forever. Returns false when this call found a waiter.
  bool depart();
  /// Whether an abort came from depart() rather than abort().
  bool stranded() const { return stranded_.load(std::memory_order_acquire); }

  /// Clears the abort and stranded flags and the departures, and re-arms
  /// the count. Only while no participant is inside arriveAndWait()
  /// (between runs of a mesh).
  void reset();

  int participants() const { return participants_; }

private:
  void strand();

  const int participants_;
  const WaitPolicy policy_;
  // Separate cache lines: every arrival writes `remaining_`, every waiter
  // polls `generation_`.
  alignas(64) std::atomic<int> remaining_;
  alignas(64) std::atomic<uint64_t> generation_{0};
  alignas(64) std::atomic<bool> aborted_{false};
  std::atomic<bool> stranded_{false};
  std::atomic<int> departed_{0};
  Parker parker_;
};

} // namespace loom

#endif // LOOM_RUNTIME_BARRIER_H
