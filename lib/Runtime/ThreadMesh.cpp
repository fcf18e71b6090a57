//===- ThreadMesh.cpp - The CPU thread mesh and its collectives -----------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// One persistent thread per shard (shard 0 on the caller's thread), and
// collectives through shared memory:
//
//   1. each shard writes its operand into its own slot,
//   2. one SpinBarrier round,
//   3. each shard reads every slot in shard order and reduces them itself.
//
// Every shard computes the same reduction in the same order, so all get the
// same bits and nobody has to broadcast a result. The slots are
// double-buffered by the parity of the collective's sequence number: a shard
// writes its slot for collective k only after barrier k-1, which every shard
// reaches only after it has read the slots of collective k-2, the last ones
// with the same parity. So one barrier per collective suffices.
//
// Ordered sums copy the shard's values into its slot instead of publishing a
// pointer to them. With a pointer, a second barrier would be needed before
// any shard may return (the others still read its values), and worse, after
// an abort a shard released early could free its values while a shard that
// saw the round complete still reads them. The copy is the size of the
// shard's own lanes, cheaper than a second barrier round for the batches
// Loom runs, and keeps every read inside memory the mesh owns.
//
// Every shard must enter the same collectives. A shard whose body returns
// while another waits in a collective it never entered would leave that one
// waiting forever; the barrier notices the departure (SpinBarrier::depart)
// and the run fails with a message instead, since only a compiler bug can
// cause it.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Barrier.h"
#include "loom/Runtime/Mesh.h"

#include <fmt/format.h>

#include <exception>
#include <system_error>
#include <thread>

namespace loom {
namespace {

/// One shard's operand of a collective. Own cache line, so shards writing
/// their operands do not invalidate each other's.
struct alignas(64) Slot {
  int64_t intValue = 0;
  double floatValue = 0;
  std::vector<float> f32;
  std::vector<double> f64;
};

std::vector<float> &buffer(Slot &slot, float) { return slot.f32; }
std::vector<double> &buffer(Slot &slot, double) { return slot.f64; }
const std::vector<float> &buffer(const Slot &slot, float) { return slot.f32; }
const std::vector<double> &buffer(const Slot &slot, double) { return slot.f64; }

/// The CPU backend of MeshState: shards are threads of one process.
class ThreadMeshState final : public MeshState {
public:
  explicit ThreadMeshState(int32_t numShards)
      : MeshState(numShards), barrier_(numShards) {
    slots_[0].resize(numShards);
    slots_[1].resize(numShards);
  }

  bool allReduceInt(ShardContext &ctx, LoomReduceKind kind,
                    int64_t &value) override {
    return allReduceScalar(ctx, kind, value, &Slot::intValue, reduceInt);
  }

  bool allReduceFloat(ShardContext &ctx, LoomReduceKind kind,
                      double &value) override {
    return allReduceScalar(ctx, kind, value, &Slot::floatValue, reduceFloat);
  }

  bool orderedSum(ShardContext &ctx, const float *values, int64_t count,
                  float &sum) override {
    return orderedSumImpl(ctx, values, count, sum);
  }
  bool orderedSum(ShardContext &ctx, const double *values, int64_t count,
                  double &sum) override {
    return orderedSumImpl(ctx, values, count, sum);
  }

  /// Called when a shard's body returned success: a shard still waiting in
  /// a collective would wait forever (the compiled shards disagree about
  /// their collectives, a compiler bug), so that fails the run instead.
  void shardFinished(ShardContext &ctx) {
    if (numShards() == 1 || !ok())
      return;
    if (!barrier_.depart())
      fail(ctx.shard, fmt::format("finished after {} collectives while "
                                  "another shard waits in one more (the "
                                  "shards' collectives do not match)",
                                  ctx.round));
  }

protected:
  void releaseWaiters() override { barrier_.abort(); }
  void resetCollectives() override { barrier_.reset(); }

private:
  /// Every shard publishes `value` in its slot's `field`; after the barrier
  /// each combines them all with `reduce`, in shard order.
  template <typename T>
  bool allReduceScalar(ShardContext &ctx, LoomReduceKind kind, T &value,
                       T Slot::*field,
                       bool (*reduce)(LoomReduceKind, T, T, T &)) {
    if (!ok())
      return false;
    if (numShards() == 1)
      return true;
    std::vector<Slot> &slots = slots_[ctx.round++ & 1];
    slots[ctx.shard].*field = value;
    if (!arrive(ctx))
      return false;
    T result = slots[0].*field;
    for (size_t i = 1; i < slots.size(); ++i)
      reduce(kind, result, slots[i].*field, result);
    value = result;
    return true;
  }

  template <typename T>
  bool orderedSumImpl(ShardContext &ctx, const T *values, int64_t count,
                      T &sum) {
    if (!ok())
      return false;
    // One accumulator, added to in lane order and rounded to T after every
    // addition: exactly what a sequential loop over all lanes computes.
    T acc = T(0);
    if (numShards() == 1) {
      for (int64_t i = 0; i < count; ++i)
        acc += values[i];
      sum = acc;
      return true;
    }
    std::vector<Slot> &slots = slots_[ctx.round++ & 1];
    // assign() reuses the capacity: no allocation once the slot has held
    // this many values.
    buffer(slots[ctx.shard], T()).assign(values, values + count);
    if (!arrive(ctx))
      return false;
    for (const Slot &slot : slots)
      for (T value : buffer(slot, T()))
        acc += value;
    sum = acc;
    return true;
  }

  /// The one barrier round of a collective (number ctx.round - 1).
  bool arrive(ShardContext &ctx) {
    if (barrier_.arriveAndWait())
      return true;
    if (barrier_.stranded())
      fail(ctx.shard, fmt::format("entered collective {} after another shard "
                                  "had finished (the shards' collectives do "
                                  "not match)",
                                  ctx.round));
    return false;
  }

  SpinBarrier barrier_;
  std::vector<Slot> slots_[2];
};

/// The ThreadMesh::Impl whose shard (or whose run() caller) the current
/// thread is, to refuse a run() that would wait for itself.
thread_local const void *currentMesh = nullptr;

/// Runs a body. Bodies must not throw; if one does anyway, its exception
/// becomes the shard's error instead of std::terminate in a pool thread.
Status callBody(const ShardBody &body, ShardContext &ctx) {
#if defined(__cpp_exceptions)
  try {
    return body(ctx);
  } catch (const std::exception &e) {
    return Status::error(fmt::format("uncaught exception: {}", e.what()));
  } catch (...) {
    return Status::error("uncaught exception");
  }
#else
  return body(ctx);
#endif
}

} // namespace

struct ThreadMesh::Impl {
  explicit Impl(int32_t numShards)
      : numShards(numShards), state(numShards), contexts(numShards),
        policy(WaitPolicy::forParticipants(numShards)) {
    for (int32_t shard = 0; shard < numShards; ++shard) {
      contexts[shard].shard = shard;
      contexts[shard].numShards = numShards;
      contexts[shard].mesh = &state;
    }
  }

  /// A pool thread: waits for a job, runs its shard, reports completion.
  void workerLoop(int32_t shard) {
    currentMesh = this;
    uint64_t seen = 0;
    for (;;) {
      // Between calls the pool spins, yields, then sleeps (WaitPolicy): a
      // caller that calls again at once finds it awake, an idle pool costs
      // no CPU.
      startParker.waitUntil(
          [&] { return epoch.load(std::memory_order_acquire) != seen; },
          policy);
      seen = epoch.load(std::memory_order_acquire);
      if (stopping)
        return;
      runShard(shard);
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
        doneParker.wakeAll();
    }
  }

  void runShard(int32_t shard) {
    Status status = callBody(*body, contexts[shard]);
    if (!status.ok())
      state.fail(shard, status.message());
    else
      state.shardFinished(contexts[shard]);
  }

  /// Stops and joins the pool threads. Only while no run is in progress.
  void stopThreads() {
    stopping = true;
    epoch.fetch_add(1, std::memory_order_release);
    startParker.wakeAll();
    for (std::thread &thread : threads)
      thread.join();
    threads.clear();
  }

  const int32_t numShards;
  ThreadMeshState state;
  std::vector<ShardContext> contexts;
  std::vector<std::thread> threads;
  const WaitPolicy policy;

  /// Serializes run(), stats(), resetStats() and destruction.
  mutable std::mutex runMutex;
  int64_t runs = 0;

  // The job: written by run() before it bumps `epoch`, read by the pool
  // after it sees the new epoch.
  const ShardBody *body = nullptr;
  bool stopping = false;
  alignas(64) std::atomic<uint64_t> epoch{0};
  /// Pool shards still running the current job.
  alignas(64) std::atomic<int32_t> pending{0};
  Parker startParker;
  Parker doneParker;

  /// Guards `running`, so cancel() aborts only the run in progress and
  /// never leaks into the next one.
  std::mutex cancelMutex;
  bool running = false;
};

Result<std::unique_ptr<ThreadMesh>> ThreadMesh::create(int64_t numShards) {
  if (numShards < 1)
    return Status::error(
        fmt::format("the shard count must be positive, got {}", numShards));
  if (numShards > kMaxShards)
    return Status::error(fmt::format(
        "at most {} shards (one thread each), got {}", kMaxShards, numShards));
  auto impl = std::make_unique<Impl>(static_cast<int32_t>(numShards));
#if defined(__cpp_exceptions)
  try {
#endif
    for (int32_t shard = 1; shard < numShards; ++shard) {
      Impl *raw = impl.get();
      impl->threads.emplace_back([raw, shard] { raw->workerLoop(shard); });
    }
#if defined(__cpp_exceptions)
  } catch (const std::system_error &e) {
    impl->stopThreads();
    return Status::error(
        fmt::format("cannot start the threads of a {}-shard mesh: {}",
                    numShards, e.what()));
  }
#endif
  return std::unique_ptr<ThreadMesh>(new ThreadMesh(std::move(impl)));
}

ThreadMesh::ThreadMesh(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

ThreadMesh::~ThreadMesh() {
  std::lock_guard<std::mutex> lock(impl_->runMutex);
  impl_->stopThreads();
}

int32_t ThreadMesh::numShards() const { return impl_->numShards; }

Status ThreadMesh::run(int64_t batch, const ShardBody &body) {
  Impl &mesh = *impl_;
  if (currentMesh == &mesh)
    return Status::error(
        "a shard called run() on its own mesh, which would wait for itself");
  if (batch < 0)
    return Status::error(
        fmt::format("the batch size must not be negative, got {}", batch));
  if (!body)
    return Status::error("run() needs a body");

  std::lock_guard<std::mutex> lock(mesh.runMutex);
  // Nothing runs now: the previous run's pool shards all finished (pending
  // reached 0), so an abort left over from it can be cleared.
  mesh.state.reset();
  for (ShardContext &ctx : mesh.contexts) {
    LaneRange lanes = splitLanes(batch, mesh.numShards, ctx.shard);
    ctx.laneBegin = lanes.begin;
    ctx.laneEnd = lanes.end;
    ctx.round = 0;
    ctx.stats.lanes = lanes.size();
  }
  mesh.body = &body;
  {
    std::lock_guard<std::mutex> cancelLock(mesh.cancelMutex);
    mesh.running = true;
  }
  mesh.pending.store(mesh.numShards - 1, std::memory_order_relaxed);
  mesh.epoch.fetch_add(1, std::memory_order_release);
  mesh.startParker.wakeAll();

  const void *outer = currentMesh;
  currentMesh = &mesh;
  mesh.runShard(0);
  currentMesh = outer;

  mesh.doneParker.waitUntil(
      [&] { return mesh.pending.load(std::memory_order_acquire) == 0; },
      mesh.policy);
  {
    std::lock_guard<std::mutex> cancelLock(mesh.cancelMutex);
    mesh.running = false;
  }
  mesh.body = nullptr;
  ++mesh.runs;
  return mesh.state.status();
}

void ThreadMesh::cancel() {
  std::lock_guard<std::mutex> lock(impl_->cancelMutex);
  if (impl_->running)
    impl_->state.fail(-1, "cancelled");
}

MeshStats ThreadMesh::stats() const {
  std::lock_guard<std::mutex> lock(impl_->runMutex);
  MeshStats stats;
  stats.runs = impl_->runs;
  stats.shards.reserve(impl_->contexts.size());
  for (const ShardContext &ctx : impl_->contexts) {
    stats.shards.push_back(ctx.stats);
    stats.shards.back().variants = ctx.variants.snapshot();
  }
  return stats;
}

void ThreadMesh::resetStats() {
  std::lock_guard<std::mutex> lock(impl_->runMutex);
  impl_->runs = 0;
  for (ShardContext &ctx : impl_->contexts)
    ctx.stats = ShardStats();
}

} // namespace loom
