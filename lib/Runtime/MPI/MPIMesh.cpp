//===- MPIMesh.cpp - One rank per shard, over MPI -------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// MPI for the process, the mesh that runs this rank's shard, and the
// transport that moves a call's data between rank 0 and the others. The
// collectives are in MPIMeshState.cpp.
//
//===----------------------------------------------------------------------===//

#include "MPIMeshState.h"

#include "loom/Runtime/MPIMesh.h"

#include <fmt/format.h>

#include <climits>
#include <cstdlib>
#include <mutex>

using namespace loom;
using namespace loom::mpi;

namespace {

/// MPI for the whole process. Initialized once, by Loom unless the
/// application did it first; finalized when the process exits only if Loom
/// initialized it (every Executable is gone by then).
struct MPIEnvironment {
  MPIEnvironment() {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    if (finalized) {
      error = "MPI was finalized already";
      return;
    }
    if (initialized) {
      MPI_Query_thread(&provided);
      return;
    }
    // Calls come from whichever thread calls the executable, one at a time
    // (the mesh's mutex): SERIALIZED is what that needs.
    int rc =
        MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided);
    if (rc != MPI_SUCCESS) {
      error = mpiError("MPI_Init_thread", rc);
      return;
    }
    owned = true;
  }
  ~MPIEnvironment() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owned && !finalized)
      MPI_Finalize();
  }

  bool owned = false;
  int provided = MPI_THREAD_SINGLE;
  std::string error;
};

Result<const MPIEnvironment *> environment() {
  static MPIEnvironment env;
  if (!env.error.empty())
    return Status::error(env.error);
  return &env;
}

Result<MPI_Comm> communicatorOf(std::optional<int32_t> handle) {
  if (!handle)
    return MPI_COMM_WORLD;
  MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(*handle));
  if (comm == MPI_COMM_NULL)
    return Status::error("the MPI communicator given to Loom is null");
  return comm;
}

Result<MPI_Comm> duplicate(MPI_Comm comm) {
  MPI_Comm dup;
  if (int rc = MPI_Comm_dup(comm, &dup))
    return Status::error(mpiError("MPI_Comm_dup", rc));
  // Errors come back as values; the default on a new communicator (taken
  // from MPI_COMM_WORLD's) would abort the job.
  MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
  return dup;
}

const char *threadLevelName(int level) {
  switch (level) {
  case MPI_THREAD_SINGLE:
    return "MPI_THREAD_SINGLE";
  case MPI_THREAD_FUNNELED:
    return "MPI_THREAD_FUNNELED";
  case MPI_THREAD_SERIALIZED:
    return "MPI_THREAD_SERIALIZED";
  default:
    return "MPI_THREAD_MULTIPLE";
  }
}

/// MPI counts are ints: a part larger than that is refused, not truncated.
bool fitsInt(int64_t bytes) { return bytes >= 0 && bytes <= INT_MAX; }

class MPIMesh final : public Mesh, public MeshTransport {
public:
  MPIMesh(int32_t numShards, std::optional<int32_t> communicator)
      : state_(numShards), communicator_(communicator) {
    ctx_.numShards = numShards;
    ctx_.mesh = &state_;
  }
  ~MPIMesh() override;

  int32_t numShards() const override { return state_.numShards(); }
  Status run(int64_t batch, const ShardBody &body) override;
  void cancel() override;
  MeshStats stats() const override;
  void resetStats() override {
    std::lock_guard<std::mutex> lock(mutex_);
    runs_ = 0;
    ctx_.stats = ShardStats();
  }
  MeshTransport *transport() override { return this; }

  /// Not collective: known before the mesh joins the job.
  int32_t rank() const override {
    if (setUpDone_ && setUpStatus_.ok())
      return state_.rank;
    auto base = environment() ? communicatorOf(communicator_)
                              : Result<MPI_Comm>(Status::error(""));
    int rank = 0;
    if (base)
      MPI_Comm_rank(*base, &rank);
    return rank;
  }
  Status agree(const Status &status) override;
  Status broadcast(void *data, int64_t bytes) override;
  Status scatter(const void *send, const std::vector<int64_t> &counts,
                 void *recv) override;
  Status gather(const void *send, const std::vector<int64_t> &counts,
                void *recv) override;

private:
  /// Joins the job at first use; every rank does it in the same call.
  Status setUp() const;
  Status checkThread() const;
  Status error(const std::string &what, int rc) const {
    return Status::error(
        fmt::format("rank {}: {}", state_.rank, mpiError(what.c_str(), rc)));
  }

  mutable MPIMeshState state_;
  mutable ShardContext ctx_;
  std::optional<int32_t> communicator_;
  mutable std::mutex mutex_;
  mutable Status setUpStatus_;
  mutable bool setUpDone_ = false;
  mutable int threadLevel_ = MPI_THREAD_SINGLE;
  int64_t runs_ = 0;
  std::mutex cancelMutex_;
  bool running_ = false;
};

Status MPIMesh::setUp() const {
  if (setUpDone_)
    return setUpStatus_;
  setUpDone_ = true;
  setUpStatus_ = [&]() -> Status {
    auto env = environment();
    if (!env)
      return env.status();
    threadLevel_ = (*env)->provided;
    auto base = communicatorOf(communicator_);
    if (!base)
      return base.status();
    int size = 0, rank = 0;
    if (int rc = MPI_Comm_size(*base, &size))
      return Status::error(mpiError("MPI_Comm_size", rc));
    MPI_Comm_rank(*base, &rank);
    if (size != numShards())
      return Status::error(fmt::format(
          "the program was compiled for {} shard{}, but the MPI job has {} "
          "rank{} (one rank per shard: run it under mpirun -np {}, or "
          "compile it with --shards {})",
          numShards(), numShards() == 1 ? "" : "s", size, size == 1 ? "" : "s",
          numShards(), size));
    state_.rank = rank;
    ctx_.shard = rank;
    for (MPI_Comm *comm : {&state_.control, &state_.loop, &state_.notices}) {
      auto dup = duplicate(*base);
      if (!dup)
        return dup.status();
      *comm = *dup;
    }
    return Status::success();
  }();
  return setUpStatus_;
}

Status MPIMesh::checkThread() const {
  if (threadLevel_ >= MPI_THREAD_SERIALIZED)
    return Status::success();
  int isMain = 0;
  MPI_Is_thread_main(&isMain);
  if (isMain)
    return Status::success();
  return Status::error(fmt::format(
      "MPI was initialized with {}: call the executable from the thread that "
      "initialized MPI, or initialize it with MPI_THREAD_SERIALIZED",
      threadLevelName(threadLevel_)));
}

MPIMesh::~MPIMesh() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized || !setUpDone_ || !setUpStatus_.ok())
    return;
  // The poisoned communicators keep their abandoned requests: never freed.
  for (MPI_Comm *comm : {&state_.control, &state_.loop, &state_.notices})
    if (*comm != MPI_COMM_NULL)
      MPI_Comm_free(comm);
}

Status MPIMesh::run(int64_t batch, const ShardBody &body) {
  if (batch < 0)
    return Status::error(
        fmt::format("the batch size must not be negative, got {}", batch));
  if (!body)
    return Status::error("run() needs a body");
  std::lock_guard<std::mutex> lock(mutex_);
  if (Status s = setUp(); !s.ok())
    return s;
  if (Status s = checkThread(); !s.ok())
    return s;
  state_.beginRun();
  // Read at every run, so a test can make one call fail and the next not.
  const char *failRank = std::getenv("LOOM_TEST_FAIL_RANK");
  state_.failRank = failRank ? std::atoi(failRank) : -1;
  LaneRange lanes = splitLanes(batch, numShards(), state_.rank);
  ctx_.laneBegin = lanes.begin;
  ctx_.laneEnd = lanes.end;
  ctx_.round = 0;
  ctx_.stats.lanes = lanes.size();
  {
    std::lock_guard<std::mutex> cancelLock(cancelMutex_);
    running_ = true;
  }
  Status status = Status::success();
#if defined(__cpp_exceptions)
  try {
#endif
    status = body(ctx_);
#if defined(__cpp_exceptions)
  } catch (const std::exception &e) {
    status = Status::error(std::string("exception: ") + e.what());
  } catch (...) {
    status = Status::error("unknown exception");
  }
#endif
  if (!status.ok() && state_.ok())
    state_.fail(state_.rank, status.message());
  state_.injectAtEnd(ctx_);
  {
    std::lock_guard<std::mutex> cancelLock(cancelMutex_);
    running_ = false;
  }
  ++runs_;
  return state_.finishRun();
}

void MPIMesh::cancel() {
  std::lock_guard<std::mutex> lock(cancelMutex_);
  if (running_)
    state_.fail(state_.rank, "cancelled");
}

MeshStats MPIMesh::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  MeshStats stats;
  stats.runs = runs_;
  ShardStats mine = ctx_.stats;
  mine.variants = ctx_.variants.snapshot();
  if (!setUp().ok() || numShards() == 1) {
    stats.shards.push_back(std::move(mine));
    return stats;
  }
  // Each rank's counters as [lanes, collectives, loops, then per loop
  // iterations and active lane-iterations, then per variant site the
  // choice and the two best times], gathered on every rank.
  std::vector<int64_t> flat = {mine.lanes, mine.collectives,
                               static_cast<int64_t>(mine.loops.size())};
  for (const LoopStats &loop : mine.loops) {
    flat.push_back(loop.iterations);
    flat.push_back(loop.activeLaneIterations);
  }
  for (const VariantStats &site : mine.variants) {
    flat.push_back(site.chosen);
    flat.push_back(site.best[0]);
    flat.push_back(site.best[1]);
  }
  int count = static_cast<int>(flat.size());
  std::vector<int> counts(numShards()), displacements(numShards());
  MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, state_.control);
  int total = 0;
  for (int32_t r = 0; r < numShards(); ++r) {
    displacements[r] = total;
    total += counts[r];
  }
  std::vector<int64_t> all(total);
  MPI_Allgatherv(flat.data(), count, MPI_INT64_T, all.data(), counts.data(),
                 displacements.data(), MPI_INT64_T, state_.control);
  for (int32_t r = 0; r < numShards(); ++r) {
    const int64_t *p = all.data() + displacements[r];
    ShardStats shard;
    shard.lanes = p[0];
    shard.collectives = p[1];
    int i = 3, loopsEnd = 3 + 2 * static_cast<int>(p[2]);
    for (; i + 1 < loopsEnd && i + 1 < counts[r]; i += 2)
      shard.loops.push_back({p[i], p[i + 1]});
    for (; i + 2 < counts[r]; i += 3) {
      VariantStats site;
      site.chosen = static_cast<int32_t>(p[i]);
      site.best[0] = p[i + 1];
      site.best[1] = p[i + 2];
      shard.variants.push_back(site);
    }
    stats.shards.push_back(std::move(shard));
  }
  return stats;
}

Status MPIMesh::agree(const Status &status) {
  if (Status s = setUp(); !s.ok())
    return s;
  int mine = status.ok() ? numShards() : state_.rank, first = 0;
  if (int rc =
          MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, state_.control))
    return error("MPI_Allreduce", rc);
  if (first == numShards())
    return Status::success();
  std::string text = status.ok() ? std::string() : status.message();
  int64_t length = static_cast<int64_t>(text.size());
  if (int rc = MPI_Bcast(&length, 1, MPI_INT64_T, first, state_.control))
    return error("MPI_Bcast", rc);
  text.resize(static_cast<size_t>(length));
  if (int rc = MPI_Bcast(text.data(), static_cast<int>(length), MPI_CHAR, first,
                         state_.control))
    return error("MPI_Bcast", rc);
  return Status::error(text);
}

Status MPIMesh::broadcast(void *data, int64_t bytes) {
  if (Status s = setUp(); !s.ok())
    return s;
  // In pieces: one MPI message holds at most INT_MAX bytes.
  auto *p = static_cast<char *>(data);
  for (int64_t done = 0; done < bytes;) {
    int piece = static_cast<int>(std::min<int64_t>(bytes - done, INT_MAX));
    if (int rc = MPI_Bcast(p + done, piece, MPI_BYTE, 0, state_.control))
      return error("MPI_Bcast", rc);
    done += piece;
  }
  return Status::success();
}

/// Byte counts per rank as MPI's int counts and displacements; `what`
/// names the data when it does not fit.
Result<std::pair<std::vector<int>, std::vector<int>>>
messageLayout(const std::vector<int64_t> &counts, int32_t rank,
              const char *what) {
  std::vector<int> sizes(counts.size()), displacements(counts.size());
  int64_t offset = 0;
  for (size_t r = 0; r < counts.size(); ++r) {
    if (!fitsInt(counts[r]) || !fitsInt(offset))
      return Status::error(
          fmt::format("rank {}: {} of {} bytes is more than one MPI message "
                      "can address; use more ranks",
                      rank, what, offset + counts[r]));
    sizes[r] = static_cast<int>(counts[r]);
    displacements[r] = static_cast<int>(offset);
    offset += counts[r];
  }
  return std::make_pair(std::move(sizes), std::move(displacements));
}

Status MPIMesh::scatter(const void *send, const std::vector<int64_t> &counts,
                        void *recv) {
  if (Status s = setUp(); !s.ok())
    return s;
  auto layout = messageLayout(counts, state_.rank, "an input");
  if (!layout)
    return layout.status();
  auto &[sizes, displacements] = *layout;
  bool root = state_.rank == 0;
  if (int rc = MPI_Scatterv(root ? send : nullptr, sizes.data(),
                            displacements.data(), MPI_BYTE,
                            root ? MPI_IN_PLACE : recv, sizes[state_.rank],
                            MPI_BYTE, 0, state_.control))
    return error("MPI_Scatterv", rc);
  return Status::success();
}

Status MPIMesh::gather(const void *send, const std::vector<int64_t> &counts,
                       void *recv) {
  if (Status s = setUp(); !s.ok())
    return s;
  auto layout = messageLayout(counts, state_.rank, "an output");
  if (!layout)
    return layout.status();
  auto &[sizes, displacements] = *layout;
  if (int rc =
          MPI_Gatherv(send, sizes[state_.rank], MPI_BYTE, recv, sizes.data(),
                      displacements.data(), MPI_BYTE, 0, state_.control))
    return error("MPI_Gatherv", rc);
  return Status::success();
}

} // namespace

namespace loom {

bool mpiAvailable() { return true; }

Result<int32_t> mpiJobSize(std::optional<int32_t> communicator) {
  auto env = environment();
  if (!env)
    return env.status();
  auto comm = communicatorOf(communicator);
  if (!comm)
    return comm.status();
  int size = 0;
  if (int rc = MPI_Comm_size(*comm, &size))
    return Status::error(mpiError("MPI_Comm_size", rc));
  return size;
}

MPIWorld mpiWorld() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  MPIWorld world;
  if (initialized && !finalized) {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    world.rank = rank;
    world.size = size;
  }
  return world;
}

Result<std::unique_ptr<Mesh>>
createMPIMesh(int64_t numShards, std::optional<int32_t> communicator) {
  if (numShards < 1 || numShards > kMaxShards)
    return Status::error(fmt::format("an MPI mesh has 1 to {} ranks, got {}",
                                     kMaxShards, numShards));
  return std::unique_ptr<Mesh>(
      new MPIMesh(static_cast<int32_t>(numShards), communicator));
}

void abortJob(int code) {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);
}

} // namespace loom
