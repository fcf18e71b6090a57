//===- Mesh.h - Shards, collectives and the CPU thread mesh -----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// A mesh runs one program on N shards, each on its own slice of the batch
// axis, and gives the shards the collectives of ABI.h. Three layers keep the
// backends apart:
//
//   - ShardContext: what the `i64 ctx` argument of every ABI call points to.
//     Backend-neutral: the shard's id and lanes, its counters, and a pointer
//     to the mesh's MeshState.
//   - MeshState: the state all shards of one mesh share, and the backend's
//     collectives as virtual functions. The base class owns what every
//     backend needs the same way (the abort flag, the first error); a
//     backend implements the collectives: the CPU thread mesh with a
//     SpinBarrier and scratch slots in shared memory, an MPI mesh with
//     MPI_Allreduce / MPI_Allgatherv inside one rank (its ShardContext is the
//     rank's only one), a GPU-per-shard mesh with one host thread per device
//     and the CPU collectives on the host. The ABI functions (ABI.cpp)
//     dispatch through MeshState and do the backend-neutral work themselves
//     (checking the reduction kind, counting collectives), so every backend
//     behaves and counts alike.
//   - Mesh: how a caller runs a body on every shard. ThreadMesh is the CPU
//     implementation: a persistent pool with one thread per shard.
//
// None of this depends on MLIR: JIT'd code, `loom-run`, the embedded API and
// (later) MPI ranks and GPU hosts link the same runtime.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_MESH_H
#define LOOM_RUNTIME_MESH_H

#include "loom/Runtime/ABI.h"
#include "loom/Runtime/Variants.h"
#include "loom/Support/Limits.h"
#include "loom/Support/Status.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace loom {

//===----------------------------------------------------------------------===//
// Uneven splits
//===----------------------------------------------------------------------===//

/// The lanes [begin, end) of the batch axis that one shard owns.
struct LaneRange {
  int64_t begin = 0;
  int64_t end = 0;
  int64_t size() const { return end - begin; }
};

/// The lanes shard `shard` of `numShards` owns out of `batch`. Shards get
/// contiguous ranges in shard order; when `numShards` does not divide
/// `batch` the first `batch % numShards` shards get one lane more (10 lanes
/// on 3 shards: 4, 3, 3), and with fewer lanes than shards the last shards
/// get none. Nothing is padded. Requires batch >= 0, numShards >= 1 and
/// 0 <= shard < numShards.
LaneRange splitLanes(int64_t batch, int32_t numShards, int32_t shard);

//===----------------------------------------------------------------------===//
// Counters
//===----------------------------------------------------------------------===//

/// What one shard recorded for one loop (loom_rt_count_iteration).
struct LoopStats {
  /// Iterations the shard executed.
  int64_t iterations = 0;
  /// The sum over those iterations of the lanes doing useful work. For a
  /// masked loop, the lane utilisation of a shard is
  /// activeLaneIterations / (iterations * ShardStats::lanes).
  int64_t activeLaneIterations = 0;
};

/// What one shard recorded since the stats were last reset.
struct ShardStats {
  /// Indexed by the compiler's loop id; loops the shard never counted are
  /// zero. Ids at or above kMaxLoopId are not recorded.
  std::vector<LoopStats> loops;
  /// Collective calls (all-reduces and ordered sums), including ones that
  /// found the mesh aborted.
  int64_t collectives = 0;
  /// The shard's lane count in the last run.
  int64_t lanes = 0;
  /// Per loom.variant_begin site, what the shard chose. Choices outlive
  /// resets of the counters: a mesh's stats() reads them from the shard's
  /// VariantChoices, which resetStats() leaves alone.
  std::vector<VariantStats> variants;

  /// Loop ids are dense small integers from the compiler; a larger one is a
  /// bug or garbage, and must not make the runtime allocate gigabytes.
  static constexpr int32_t kMaxLoopId = 1 << 16;
};

/// The counters of every shard of a mesh, read after run() returns.
struct MeshStats {
  /// Calls of run() since the stats were last reset.
  int64_t runs = 0;
  /// One entry per shard, in shard order.
  std::vector<ShardStats> shards;

  /// One more than the largest loop id any shard recorded.
  size_t numLoops() const;
  /// Loop `loop` summed over all shards.
  LoopStats loopTotal(int32_t loop) const;
};

//===----------------------------------------------------------------------===//
// The context of one shard
//===----------------------------------------------------------------------===//

class MeshState;

/// One shard of a running mesh: what the `ctx` argument of the ABI points
/// to. The mesh owns it; a body receives it by reference and passes
/// abiHandle() to compiled code. Cache-line aligned because each shard
/// writes its own counters on every collective.
struct alignas(64) ShardContext {
  int32_t shard = 0;
  int32_t numShards = 1;
  /// This shard's lanes of the batch axis (see splitLanes).
  int64_t laneBegin = 0;
  int64_t laneEnd = 0;
  /// The shared state and collectives of the mesh.
  MeshState *mesh = nullptr;
  /// Written only by this shard's thread while it runs; read by the mesh
  /// after run() returns.
  ShardStats stats;
  /// Collectives this shard has entered in the current run. Every shard
  /// enters the same ones in the same order, so backends may use it to
  /// pick double-buffered scratch.
  uint64_t round = 0;
  /// Which compiled variant this shard runs at each loom.variant_begin;
  /// kept across runs, unlike the stats.
  VariantChoices variants;
  /// Whatever else a backend keeps per shard (a device stream, an MPI
  /// communicator); null for the CPU thread mesh.
  void *backendData = nullptr;

  int64_t numLanes() const { return laneEnd - laneBegin; }

  /// The value compiled code receives as `ctx`.
  int64_t abiHandle() {
    return static_cast<int64_t>(reinterpret_cast<intptr_t>(this));
  }
  static ShardContext &fromAbiHandle(int64_t ctx) {
    return *reinterpret_cast<ShardContext *>(static_cast<intptr_t>(ctx));
  }
};

//===----------------------------------------------------------------------===//
// The shared state of a mesh, and the backend interface
//===----------------------------------------------------------------------===//

/// The reductions every backend must agree on, so results do not depend on
/// the backend or the shard count. Integers: SUM wraps (two's complement),
/// MAX/MIN signed, AND/OR bitwise. Floats: MAX/MIN are IEEE 754-2019
/// maximum/minimum (as arith.maximumf/minimumf): a NaN operand gives a NaN
/// (the first one, in shard order), and -0.0 < +0.0, so the result does not
/// depend on the order of operands. Returns false for an unsupported kind.
bool reduceInt(LoomReduceKind kind, int64_t lhs, int64_t rhs, int64_t &result);
bool reduceFloat(LoomReduceKind kind, double lhs, double rhs, double &result);

/// The state shared by the shards of one mesh, and the collectives of its
/// backend.
///
/// Every collective is called by every shard of the mesh, in the same order
/// on every shard (the compiled program guarantees it), and returns the same
/// result on every shard. It returns false, at once, when the mesh was
/// aborted (before or during the call); the result is then unspecified. A
/// collective never throws and never blocks forever after an abort.
///
/// Abort and error recording live in this base class: the CPU mesh's shards
/// share it in memory. An MPI backend's ranks share no memory; each keeps
/// its own copy, a failing rank sends the others an abort message on a side
/// communicator, and ranks wait in non-blocking collectives (MPI_Iallreduce
/// polled with MPI_Test) that also poll for that message, so a failing rank
/// still releases the others; errors it cannot report end in MPI_Abort.
class MeshState {
public:
  /// `shardWord` prefixes a shard's error ("shard 2: ..."); the MPI mesh,
  /// whose shards are ranks, says "rank".
  explicit MeshState(int32_t numShards, const char *shardWord = "shard")
      : numShards_(numShards), shardWord_(shardWord) {}
  virtual ~MeshState();
  MeshState(const MeshState &) = delete;
  MeshState &operator=(const MeshState &) = delete;

  int32_t numShards() const { return numShards_; }

  /// True while the current run goes on normally; false once any shard
  /// failed or the run was cancelled. One atomic load: compiled code may
  /// poll it (loom_rt_ok) at every loop head.
  bool ok() const { return !aborted_.load(std::memory_order_acquire); }

  /// Records the error of shard `shard` (-1: the mesh itself, e.g. a
  /// cancel) if it is the run's first, then aborts: every shard inside or
  /// entering a collective returns at once. With more than one shard the
  /// message is prefixed with "shard N: " (the shard word). Thread-safe.
  void fail(int32_t shard, std::string_view message);

  /// The run's first error, or success.
  Status status() const;

  /// Clears the error and the abort flag and re-arms the collectives for a
  /// new run. Only while no shard runs.
  void reset();

  /// Integer all-reduce; i1 and i32 values arrive sign-extended.
  virtual bool allReduceInt(ShardContext &ctx, LoomReduceKind kind,
                            int64_t &value) = 0;
  /// Float MAX/MIN all-reduce; f32 values arrive converted (exactly).
  virtual bool allReduceFloat(ShardContext &ctx, LoomReduceKind kind,
                              double &value) = 0;
  /// The sum of every shard's `count` values in global lane order (shard 0
  /// first, each shard's values in order), accumulated from +0.0 in the
  /// element type, so the bits do not depend on the shard count.
  virtual bool orderedSum(ShardContext &ctx, const float *values, int64_t count,
                          float &sum) = 0;
  virtual bool orderedSum(ShardContext &ctx, const double *values,
                          int64_t count, double &sum) = 0;

protected:
  /// Wakes every shard blocked in a collective; called after the abort flag
  /// is set. May be called more than once per run.
  virtual void releaseWaiters() = 0;
  /// Re-arms the backend's synchronization after an abort; no shard runs.
  virtual void resetCollectives() = 0;

private:
  const int32_t numShards_;
  const char *const shardWord_;
  std::atomic<bool> aborted_{false};
  mutable std::mutex errorMutex_;
  bool hasError_ = false;
  std::string error_;
};

//===----------------------------------------------------------------------===//
// Meshes
//===----------------------------------------------------------------------===//

/// The body a mesh runs on every shard: a reference to a callable taking a
/// ShardContext & and returning a Status, which must outlive the run() it is
/// given to (a lambda written in the call does). A reference rather than a
/// std::function, which would allocate on every run for a lambda capturing
/// more than two pointers. The body reports failure by returning an error,
/// never by throwing (compiled code under it cannot unwind); the CPU mesh
/// turns an exception that escapes anyway into the shard's error rather
/// than std::terminate in a pool thread.
class ShardBody {
public:
  /// No body; run() refuses it.
  ShardBody() = default;

  template <typename Callable, typename = std::enable_if_t<!std::is_same_v<
                                   std::decay_t<Callable>, ShardBody>>>
  ShardBody(Callable &&callable)
      : callable_(const_cast<void *>(
            static_cast<const void *>(std::addressof(callable)))),
        invoke_([](void *callable, ShardContext &ctx) -> Status {
          return (*static_cast<std::remove_reference_t<Callable> *>(callable))(
              ctx);
        }) {}

  Status operator()(ShardContext &ctx) const { return invoke_(callable_, ctx); }
  explicit operator bool() const { return invoke_ != nullptr; }

private:
  void *callable_ = nullptr;
  Status (*invoke_)(void *, ShardContext &) = nullptr;
};

/// How a call's data moves when the shards of a mesh live in different
/// processes that share no memory (the MPI backend: one rank per shard).
/// Only the root process, rank 0, holds the caller's inputs and receives
/// the whole outputs. Every process makes the same calls in the same order;
/// each returns the same status on every process, so no process is left
/// waiting in one that another gave up on.
class MeshTransport {
public:
  virtual ~MeshTransport();

  /// This process's rank; 0 is the root.
  virtual int32_t rank() const = 0;
  /// Every process's `status` combined: the error of the lowest rank that
  /// has one, on every process, or success.
  virtual Status agree(const Status &status) = 0;
  /// The root's `bytes` bytes at `data`, into `data` on every process.
  virtual Status broadcast(void *data, int64_t bytes) = 0;
  /// Rank r receives `counts[r]` bytes of the root's `send`, which holds
  /// them in rank order, into its `recv`. The root keeps its own part in
  /// `send` (its `recv` is unused).
  virtual Status scatter(const void *send, const std::vector<int64_t> &counts,
                         void *recv) = 0;
  /// The reverse: every rank's `counts[rank]` bytes at `send` land in the
  /// root's `recv`, in rank order. Only the root reads `counts` beyond its
  /// own entry and `recv`.
  virtual Status gather(const void *send, const std::vector<int64_t> &counts,
                        void *recv) = 0;
};

/// Runs a body on every shard of a mesh. The CPU thread mesh implements it
/// here; an MPI mesh implements run() in each rank on its one shard (inputs
/// scattered and outputs gathered around it by the caller), a GPU-per-shard
/// mesh with one host thread per device. Callers (loom-run, the embedded
/// API) only see this interface.
class Mesh {
public:
  virtual ~Mesh();

  virtual int32_t numShards() const = 0;

  /// Splits `batch` lanes over the shards (splitLanes), runs `body` on
  /// every shard, waits for all of them, and returns the run's first error,
  /// or success. A failing shard (a body returning an error, a bad call to
  /// the ABI) aborts the run: every shard blocked in a collective returns at
  /// once, and the error reaches the caller as soon as the bodies return.
  /// A body that neither calls a collective nor polls loom_rt_ok() still
  /// runs to its end. The mesh is usable again after a failed run.
  virtual Status run(int64_t batch, const ShardBody &body) = 0;

  /// Aborts the run in progress (it returns the error "cancelled"); does
  /// nothing when no run is in progress. Thread-safe; callable from any
  /// thread, a shard's included.
  virtual void cancel() = 0;

  /// The counters of every shard, accumulated over the runs since the last
  /// resetStats(). Waits for a run in progress.
  virtual MeshStats stats() const = 0;
  virtual void resetStats() = 0;

  /// Non-null when the shards live in other processes: run() then runs this
  /// process's shard only, and the caller moves the call's data with it.
  virtual MeshTransport *transport() { return nullptr; }
};

/// The CPU thread mesh: one thread per shard, created once and reused by
/// every run (creating threads per call costs more than a small call).
/// Shard 0 runs on the thread that calls run(); shards 1..N-1 on the pool.
///
/// run(), stats() and resetStats() may be called from several threads at
/// once: a mutex serializes them, so concurrent runs queue and never share
/// the shards. A body must not call run() on its own mesh (that would wait
/// for itself); such a call returns an error.
class ThreadMesh final : public Mesh {
public:
  /// loom::kMaxShards, the limit loom-shard checks too.
  static constexpr int32_t kMaxShards = loom::kMaxShards;

  /// Starts the pool. Fails for a shard count outside [1, kMaxShards] or
  /// when the threads cannot be created.
  static Result<std::unique_ptr<ThreadMesh>> create(int64_t numShards);

  /// Joins every thread; waits for a run in progress.
  ~ThreadMesh() override;

  int32_t numShards() const override;
  Status run(int64_t batch, const ShardBody &body) override;
  void cancel() override;
  MeshStats stats() const override;
  void resetStats() override;

private:
  struct Impl;
  explicit ThreadMesh(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

} // namespace loom

#endif // LOOM_RUNTIME_MESH_H
