//===- MPIMeshState.cpp - Collectives over MPI
//-----------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The collectives compiled code calls, with the thread mesh's bits, and how
// a failing rank releases the others (MPIMeshState.h).
//
//===----------------------------------------------------------------------===//

#include "MPIMeshState.h"

#include <fmt/format.h>

#include <climits>
#include <cstring>
#include <thread>

using namespace loom;
using namespace loom::mpi;

/// The tag of a failing rank's notice on the `notices` communicator.
static constexpr int kNoticeTag = 1;

std::string loom::mpi::mpiError(const char *call, int code) {
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS)
    return fmt::format("{} failed with MPI error {}", call, code);
  return fmt::format("{} failed: {}", call, std::string_view(text, length));
}

bool MPIMeshState::wait(MPI_Request &request) {
  for (unsigned polls = 0;; ++polls) {
    int done = 0;
    if (int rc = MPI_Test(&request, &done, MPI_STATUS_IGNORE); rc)
      return mpiFailed("MPI_Test", rc);
    if (done)
      return true;
    pollNotices();
    if (!ok()) {
      flushNotices();
      abandoned_.push_back({request, std::move(scratch_)});
      scratch_ = std::make_unique<Scratch>();
      return false;
    }
    // More ranks than cores: let the one we wait for run.
    if (polls > 256)
      std::this_thread::yield();
  }
}

void MPIMeshState::pollNotices() {
  int flag = 0;
  MPI_Status status;
  while (MPI_Iprobe(MPI_ANY_SOURCE, kNoticeTag, notices, &flag, &status) ==
             MPI_SUCCESS &&
         flag)
    receiveNotice(status);
}

void MPIMeshState::receiveNotice(const MPI_Status &status) {
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  std::string text(static_cast<size_t>(std::max(length, 0)), '\0');
  int source = status.MPI_SOURCE;
  MPI_Recv(text.data(), length, MPI_CHAR, source, kNoticeTag, notices,
           MPI_STATUS_IGNORE);
  received_[source] = true;
  noticeFrom_[source] = text;
  receivingNotice_ = true;
  fail(-1, text);
  receivingNotice_ = false;
  receivedAny_ = true;
}

void MPIMeshState::flushNotices() {
  if (noticesSent_ || !localFailure_.load() || numShards() == 1)
    return;
  noticesSent_ = true;
  noticeText_ = status().message();
  noticeRequests_.assign(numShards(), MPI_REQUEST_NULL);
  for (int32_t r = 0; r < numShards(); ++r)
    if (r != rank)
      MPI_Isend(noticeText_.data(), static_cast<int>(noticeText_.size()),
                MPI_CHAR, r, kNoticeTag, notices, &noticeRequests_[r]);
}

Status MPIMeshState::finishRun() {
  if (numShards() == 1)
    return status();
  flushNotices();
  int mine = localFailure_.load() ? 1 : 0;
  std::vector<int> failed(numShards(), 0);
  if (int rc =
          MPI_Allgather(&mine, 1, MPI_INT, failed.data(), 1, MPI_INT, control))
    return Status::error(
        fmt::format("rank {}: {}", rank, mpiError("MPI_Allgather", rc)));
  std::string first;
  bool any = false;
  for (int32_t r = 0; r < numShards(); ++r) {
    if (!failed[r])
      continue;
    any = true;
    std::string text = noticeText_;
    if (r != rank) {
      if (!received_[r]) {
        // It was sent before its rank reached this agreement.
        MPI_Status probe;
        MPI_Probe(r, kNoticeTag, notices, &probe);
        receiveNotice(probe);
      }
      text = noticeFrom_[r];
    }
    if (first.empty())
      first = text;
  }
  if (noticesSent_)
    MPI_Waitall(static_cast<int>(noticeRequests_.size()),
                noticeRequests_.data(), MPI_STATUSES_IGNORE);
  if (!any)
    return Status::success();
  MPI_Comm fresh;
  if (int rc = MPI_Comm_dup(control, &fresh))
    return Status::error(
        fmt::format("rank {}: {}", rank, mpiError("MPI_Comm_dup", rc)));
  MPI_Comm_set_errhandler(fresh, MPI_ERRORS_RETURN);
  poisoned.push_back(loop);
  loop = fresh;
  return Status::error(first);
}

bool MPIMeshState::allReduceInt(ShardContext &ctx, LoomReduceKind kind,
                                int64_t &value) {
  if (!enter(ctx))
    return false;
  if (numShards() == 1)
    return true;
  MPI_Op op;
  MPI_Datatype type = MPI_INT64_T;
  switch (kind) {
  case LOOM_REDUCE_SUM:
    // Unsigned, so the sum wraps as reduceInt's does.
    op = MPI_SUM;
    type = MPI_UINT64_T;
    break;
  case LOOM_REDUCE_MAX:
    op = MPI_MAX;
    break;
  case LOOM_REDUCE_MIN:
    op = MPI_MIN;
    break;
  case LOOM_REDUCE_AND:
    op = MPI_BAND;
    break;
  case LOOM_REDUCE_OR:
    op = MPI_BOR;
    break;
  default:
    return false;
  }
  Scratch &s = *scratch_;
  s.intIn = value;
  MPI_Request request;
  if (int rc = MPI_Iallreduce(&s.intIn, &s.intOut, 1, type, op, loop, &request))
    return mpiFailed("MPI_Iallreduce", rc);
  if (!wait(request))
    return false;
  value = s.intOut;
  return true;
}

bool MPIMeshState::allReduceFloat(ShardContext &ctx, LoomReduceKind kind,
                                  double &value) {
  if (!enter(ctx))
    return false;
  if (numShards() == 1)
    return true;
  // Every rank's value, combined in rank order as the thread mesh does: MPI's
  // MAX and MIN know neither NaN nor the sign of zero.
  Scratch &s = *scratch_;
  s.doubles.resize(numShards() + 1);
  s.doubles[numShards()] = value;
  MPI_Request request;
  if (int rc = MPI_Iallgather(&s.doubles[numShards()], 1, MPI_DOUBLE,
                              s.doubles.data(), 1, MPI_DOUBLE, loop, &request))
    return mpiFailed("MPI_Iallgather", rc);
  if (!wait(request))
    return false;
  double acc = s.doubles[0];
  for (int32_t r = 1; r < numShards(); ++r)
    reduceFloat(kind, acc, s.doubles[r], acc);
  value = acc;
  return true;
}

namespace {
template <typename T>
MPI_Datatype mpiType();
template <>
MPI_Datatype mpiType<float>() {
  return MPI_FLOAT;
}
template <>
MPI_Datatype mpiType<double>() {
  return MPI_DOUBLE;
}
} // namespace

template <typename T>
bool MPIMeshState::orderedSumImpl(ShardContext &ctx, const T *values,
                                  int64_t count, T &sum) {
  if (!enter(ctx))
    return false;
  // One accumulator, added to in lane order and rounded to T after every
  // addition: what a sequential loop over all lanes, and the thread mesh,
  // compute.
  T acc = T(0);
  if (numShards() == 1) {
    for (int64_t i = 0; i < count; ++i)
      acc += values[i];
    sum = acc;
    return true;
  }
  if (count > INT_MAX) {
    fail(rank, fmt::format("an ordered sum of {} values on one rank is more "
                           "than one MPI message holds",
                           count));
    flushNotices();
    return false;
  }
  Scratch &s = *scratch_;
  s.counts.resize(numShards() + 1);
  s.counts[numShards()] = count;
  MPI_Request request;
  if (int rc = MPI_Iallgather(&s.counts[numShards()], 1, MPI_INT64_T,
                              s.counts.data(), 1, MPI_INT64_T, loop, &request))
    return mpiFailed("MPI_Iallgather", rc);
  if (!wait(request))
    return false;
  s.recvCounts.resize(numShards());
  s.displacements.resize(numShards());
  int64_t total = 0;
  for (int32_t r = 0; r < numShards(); ++r) {
    s.recvCounts[r] = static_cast<int>(s.counts[r]);
    s.displacements[r] = static_cast<int>(total);
    total += s.counts[r];
  }
  if (total > INT_MAX) {
    fail(rank, fmt::format("an ordered sum of {} values is more than one MPI "
                           "message holds",
                           total));
    flushNotices();
    return false;
  }
  // The send side is copied too: an abandoned request may still read it
  // after the compiled code has freed `values`.
  size_t sendBytes = static_cast<size_t>(count) * sizeof(T);
  s.bytes.resize(static_cast<size_t>(total) * sizeof(T) + sendBytes);
  char *send = s.bytes.data() + static_cast<size_t>(total) * sizeof(T);
  if (count > 0)
    std::memcpy(send, values, sendBytes);
  if (int rc =
          MPI_Iallgatherv(send, static_cast<int>(count), mpiType<T>(),
                          s.bytes.data(), s.recvCounts.data(),
                          s.displacements.data(), mpiType<T>(), loop, &request))
    return mpiFailed("MPI_Iallgatherv", rc);
  if (!wait(request))
    return false;
  const T *all = reinterpret_cast<const T *>(s.bytes.data());
  for (int64_t i = 0; i < total; ++i)
    acc += all[i];
  sum = acc;
  return true;
}

bool MPIMeshState::orderedSum(ShardContext &ctx, const float *values,
                              int64_t count, float &sum) {
  return orderedSumImpl(ctx, values, count, sum);
}

bool MPIMeshState::orderedSum(ShardContext &ctx, const double *values,
                              int64_t count, double &sum) {
  return orderedSumImpl(ctx, values, count, sum);
}
