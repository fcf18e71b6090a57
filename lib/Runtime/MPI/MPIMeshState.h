//===- MPIMeshState.h - The MPI mesh's collectives --------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Internal to the MPI runtime. Three duplicates of the job's communicator
// keep the traffic apart:
//
//   - `loop`: the collectives compiled code calls, nonblocking and polled,
//     so a rank waiting in one also sees a failing rank's notice;
//   - `notices`: a failing rank's one message to every other rank;
//   - `control`: the end-of-run agreement, the call's scatter and gather
//     and the counters, which every rank reaches whatever happened.
//
// A rank released by a notice leaves its collective on `loop` pending: the
// failed rank never joins it, and MPI can cancel no collective. After a
// failed run every rank therefore moves to a fresh `loop` communicator, and
// keeps the abandoned request and its buffers alive (MPI may still write
// them), so nothing is freed that MPI could touch.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_LIB_RUNTIME_MPI_MPIMESHSTATE_H
#define LOOM_LIB_RUNTIME_MPI_MPIMESHSTATE_H

#include "loom/Runtime/Mesh.h"

#include <fmt/format.h>
#include <mpi.h>

#include <atomic>
#include <memory>
#include <string>
#include <vector>

namespace loom::mpi {

/// "CALL failed: MPI's message".
std::string mpiError(const char *call, int code);

/// What one collective on `loop` writes while it is in flight. Moved, with
/// its request, to the abandoned list when a notice ends the wait.
struct Scratch {
  int64_t intIn = 0, intOut = 0;
  std::vector<double> doubles;
  std::vector<int64_t> counts;
  std::vector<int> recvCounts, displacements;
  std::vector<char> bytes;
};

struct Abandoned {
  MPI_Request request;
  std::unique_ptr<Scratch> scratch;
};

class MPIMeshState final : public MeshState {
public:
  explicit MPIMeshState(int32_t numShards) : MeshState(numShards, "rank") {}

  bool allReduceInt(ShardContext &ctx, LoomReduceKind kind,
                    int64_t &value) override;
  bool allReduceFloat(ShardContext &ctx, LoomReduceKind kind,
                      double &value) override;
  bool orderedSum(ShardContext &ctx, const float *values, int64_t count,
                  float &sum) override;
  bool orderedSum(ShardContext &ctx, const double *values, int64_t count,
                  double &sum) override;

  /// Prepares a run on this rank.
  void beginRun() {
    reset();
    localFailure_.store(false);
    noticesSent_ = false;
    noticeFrom_.assign(numShards(), std::string());
    received_.assign(numShards(), false);
    receivedAny_ = false;
  }
  /// The failure LOOM_TEST_FAIL_RANK asks for, if it did not fire yet.
  void injectAtEnd(ShardContext &ctx) {
    if (failRank == rank && ok())
      injectFailure(ctx, /*atEnd=*/true);
  }
  /// Every rank's verdict on the run: the lowest failing rank's error on
  /// every rank, or success.
  Status finishRun();

  int32_t rank = 0;
  MPI_Comm loop = MPI_COMM_NULL, control = MPI_COMM_NULL,
           notices = MPI_COMM_NULL;
  std::vector<MPI_Comm> poisoned;
  int32_t failRank = -1;

protected:
  void releaseWaiters() override {
    // A notice received is another rank's failure: it notifies, not us.
    if (!receivingNotice_ && !receivedAny_)
      localFailure_.store(true);
  }
  void resetCollectives() override {}

private:
  static constexpr uint64_t kFailAtRound = 2;

  /// Counts the collective and answers whether to go on with it.
  bool enter(ShardContext &ctx) {
    if (!ok()) {
      flushNotices();
      return false;
    }
    if (failRank == rank && ctx.round == kFailAtRound) {
      injectFailure(ctx);
      return false;
    }
    ++ctx.round;
    return true;
  }
  void injectFailure(ShardContext &ctx, bool atEnd = false) {
    fail(rank, atEnd ? fmt::format("injected failure (LOOM_TEST_FAIL_RANK={}) "
                                   "at the end of the call, after {} "
                                   "collectives",
                                   rank, ctx.round)
                     : fmt::format("injected failure (LOOM_TEST_FAIL_RANK={}) "
                                   "entering collective {} of the call",
                                   rank, ctx.round + 1));
    flushNotices();
  }
  bool mpiFailed(const char *call, int rc) {
    fail(rank, mpiError(call, rc));
    flushNotices();
    return false;
  }
  /// Waits for `request` on `loop`, polling for notices.
  bool wait(MPI_Request &request);
  void pollNotices();
  void receiveNotice(const MPI_Status &status);
  /// Sends this rank's failure to every other rank, once per run, from the
  /// rank's own thread (cancel() only sets the flag).
  void flushNotices();

  template <typename T>
  bool orderedSumImpl(ShardContext &ctx, const T *values, int64_t count,
                      T &sum);

  std::unique_ptr<Scratch> scratch_ = std::make_unique<Scratch>();
  std::vector<Abandoned> abandoned_;
  std::atomic<bool> localFailure_{false};
  bool noticesSent_ = false;
  bool receivingNotice_ = false;
  bool receivedAny_ = false;
  std::string noticeText_;
  std::vector<MPI_Request> noticeRequests_;
  std::vector<std::string> noticeFrom_;
  std::vector<bool> received_;
};

} // namespace loom::mpi

#endif // LOOM_LIB_RUNTIME_MPI_MPIMESHSTATE_H
