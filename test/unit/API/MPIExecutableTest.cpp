//===- MPIExecutableTest.cpp - The embedded API on MPI ranks --------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// loom::Executable with Backend::MPI inside an MPI application, run by
// ctest under mpirun with 4 ranks: the application initializes MPI (Loom
// uses it and does not finalize it), passes its own communicators, and
// every rank calls. Rank 0's inputs are read; its outputs are the thread
// mesh's bits, and the others get their own lanes; errors are values on
// every rank, naming the rank, and a failed call leaves the executable
// usable.
//
//===----------------------------------------------------------------------===//

#include "loom/Loom.h"
#include "loom/Runtime/InputSpec.h"
#include "loom/Runtime/Mesh.h"

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace loom;

namespace {

int worldRank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int worldSize() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

std::string mwePath() {
  return std::string(LOOM_EXAMPLES_DIR) + "/mwe/while_of_while.mlir";
}

/// The MWE's inputs for `lanes` lanes: distinct starting values and keys.
std::vector<HostBuffer> mweInputs(int lanes) {
  std::vector<HostBuffer> inputs;
  auto inits = HostBuffer::zeros(DType::F32, {lanes, 1});
  for (int i = 0; i < lanes; ++i)
    inits->dataAs<float>()[i] = 0.05f + 0.01f * static_cast<float>(i);
  inputs.push_back(inits.take());
  inputs.push_back(
      parseInputSpec("jax-split:0:" + std::to_string(lanes)).take());
  return inputs;
}

CompileOptions mpiOptions(MPI_Comm comm = MPI_COMM_WORLD) {
  CompileOptions options;
  options.backend = Backend::MPI;
  options.divergent = DivergentPolicy::Masked;
  options.loopSync = LoopSyncPolicy::Global;
  options.optLevel = 1;
  options.mpiCommunicator = MPI_Comm_c2f(comm);
  return options;
}

/// The same program on the thread mesh with `shards` shards.
std::vector<HostBuffer> threadMeshOutputs(int shards, int lanes) {
  CompileOptions options;
  options.shards = shards;
  options.divergent = DivergentPolicy::Masked;
  options.loopSync = LoopSyncPolicy::Global;
  options.optLevel = 1;
  auto exe = Executable::compileFile(mwePath(), options);
  EXPECT_TRUE(exe) << exe.message();
  auto outputs = exe->call(mweInputs(lanes));
  EXPECT_TRUE(outputs) << outputs.message();
  return outputs.take();
}

TEST(MPIExecutableTest, RanksComputeTheThreadMeshBits) {
  const int lanes = 23; // uneven over 4 ranks: 6, 6, 6, 5
  auto exe = Executable::compileFile(mwePath(), mpiOptions());
  ASSERT_TRUE(exe) << exe.message();
  EXPECT_EQ(exe->rank(), worldRank());
  // Only rank 0 passes inputs.
  auto outputs = exe->call(worldRank() == 0 ? mweInputs(lanes)
                                            : std::vector<HostBuffer>{});
  ASSERT_TRUE(outputs) << outputs.message();
  std::vector<HostBuffer> expected = threadMeshOutputs(worldSize(), lanes);
  const HostBuffer &ys = (*outputs)[0];
  LaneRange mine = splitLanes(lanes, worldSize(), worldRank());
  if (worldRank() == 0)
    mine = {0, lanes};
  ASSERT_EQ(ys.shape(), (std::vector<int64_t>{mine.size(), 1}));
  EXPECT_EQ(0, std::memcmp(ys.data(), expected[0].dataAs<float>() + mine.begin,
                           ys.byteSize()));

  // Every rank sees every rank's counters.
  auto counters = exe->counters();
  ASSERT_TRUE(counters) << counters.message();
  ASSERT_EQ(counters->collectives.size(), static_cast<size_t>(worldSize()));
  EXPECT_GT(counters->collectives[0], 0);
  for (int64_t c : counters->collectives)
    EXPECT_EQ(c, counters->collectives[0]);
}

// Each rank times the two forms of the MWE's gang nest on its own; every
// rank sees every rank's choice, after its loop counters.
TEST(MPIExecutableTest, EveryRankSeesEveryRanksVariantChoice) {
  CompileOptions options = mpiOptions();
  options.divergent = DivergentPolicy::Auto;
  options.loopSync = LoopSyncPolicy::Local;
  options.countLoops = true;
  auto exe = Executable::compileFile(mwePath(), options);
  ASSERT_TRUE(exe) << exe.message();
  for (int call = 0; call < 4; ++call)
    ASSERT_TRUE(exe->call(worldRank() == 0 ? mweInputs(40 * worldSize())
                                           : std::vector<HostBuffer>{}));
  auto counters = exe->counters();
  ASSERT_TRUE(counters) << counters.message();
  ASSERT_FALSE(counters->loops.empty());
  for (const LoopCounters &loop : counters->loops)
    EXPECT_EQ(loop.iterations.size(), static_cast<size_t>(worldSize()));
  ASSERT_EQ(counters->variants.size(), 1u);
  const VariantCounters &site = counters->variants[0];
  ASSERT_EQ(site.chosen.size(), static_cast<size_t>(worldSize()));
  for (int r = 0; r < worldSize(); ++r) {
    EXPECT_TRUE(site.chosen[r] == 0 || site.chosen[r] == 1) << "rank " << r;
    EXPECT_GT(site.primaryNanos[r], 0) << "rank " << r;
    EXPECT_GT(site.alternativeNanos[r], 0) << "rank " << r;
  }
}

TEST(MPIExecutableTest, AFailingRankIsAnErrorOnEveryRank) {
  auto exe = Executable::compileFile(mwePath(), mpiOptions());
  ASSERT_TRUE(exe) << exe.message();
  int failing = worldSize() - 1;
  setenv("LOOM_TEST_FAIL_RANK", std::to_string(failing).c_str(), 1);
  auto failed =
      exe->call(worldRank() == 0 ? mweInputs(16) : std::vector<HostBuffer>{});
  unsetenv("LOOM_TEST_FAIL_RANK");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.message(), "rank " + std::to_string(failing) +
                                  ": injected failure (LOOM_TEST_FAIL_RANK=" +
                                  std::to_string(failing) +
                                  ") entering collective 3 of the call");
  // The mesh moved to a fresh communicator: the next call works.
  auto again =
      exe->call(worldRank() == 0 ? mweInputs(16) : std::vector<HostBuffer>{});
  ASSERT_TRUE(again) << again.message();
  if (worldRank() == 0) {
    EXPECT_EQ(0, std::memcmp((*again)[0].data(),
                             threadMeshOutputs(worldSize(), 16)[0].data(),
                             (*again)[0].byteSize()));
  }
}

TEST(MPIExecutableTest, RootInputErrorsReachEveryRank) {
  auto exe = Executable::compileFile(mwePath(), mpiOptions());
  ASSERT_TRUE(exe) << exe.message();
  std::vector<HostBuffer> bad;
  if (worldRank() == 0) {
    bad = mweInputs(8);
    bad[0] = HostBuffer::zeros(DType::F64, {8, 1}).take();
  }
  auto outputs = exe->call(bad);
  ASSERT_FALSE(outputs);
  EXPECT_NE(outputs.message().find("input 'inits' (#0) must be ?x1xf32"),
            std::string::npos)
      << outputs.message();
}

TEST(MPIExecutableTest, OtherRanksInputsAreNotRead) {
  auto exe = Executable::compileFile(mwePath(), mpiOptions());
  ASSERT_TRUE(exe) << exe.message();
  // Too many inputs, or an unknown name, would fail a call on their own;
  // on a rank other than 0 they are ignored, so no rank is left waiting.
  std::vector<HostBuffer> junk(5);
  std::map<std::string, HostBuffer> named;
  named["no_such_input"] = HostBuffer();
  auto byPosition = exe->call(worldRank() == 0 ? mweInputs(9) : junk);
  ASSERT_TRUE(byPosition) << byPosition.message();
  std::map<std::string, HostBuffer> rootNamed;
  if (worldRank() == 0) {
    std::vector<HostBuffer> inputs = mweInputs(9);
    rootNamed["inits"] = std::move(inputs[0]);
    rootNamed["keys"] = std::move(inputs[1]);
  }
  auto byName = exe->callNamed(worldRank() == 0 ? rootNamed : named);
  ASSERT_TRUE(byName) << byName.message();
  EXPECT_EQ(0, std::memcmp((*byName)[0].data(), (*byPosition)[0].data(),
                           (*byName)[0].byteSize()));
}

TEST(MPIExecutableTest, RunsOnTheApplicationsCommunicator) {
  // Two groups, each its own job: ranks {0, 2} and {1, 3}.
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, worldRank() % 2, worldRank(), &half);
  int size = 0, rank = 0;
  MPI_Comm_size(half, &size);
  MPI_Comm_rank(half, &rank);
  {
    auto exe = Executable::compileFile(mwePath(), mpiOptions(half));
    ASSERT_TRUE(exe) << exe.message();
    EXPECT_EQ(exe->rank(), rank);
    auto outputs =
        exe->call(rank == 0 ? mweInputs(11) : std::vector<HostBuffer>{});
    ASSERT_TRUE(outputs) << outputs.message();
    if (rank == 0) {
      EXPECT_EQ(0, std::memcmp((*outputs)[0].data(),
                               threadMeshOutputs(size, 11)[0].data(),
                               (*outputs)[0].byteSize()));
    }
  }
  MPI_Comm_free(&half);
}

TEST(MPIExecutableTest, ShardsMustMatchTheJob) {
  CompileOptions options = mpiOptions();
  options.shards = worldSize() + 1;
  auto exe = Executable::compileFile(mwePath(), options);
  ASSERT_FALSE(exe);
  EXPECT_NE(exe.message().find("does not match the MPI job's"),
            std::string::npos)
      << exe.message();
}

} // namespace

// The application owns MPI: it initializes it, and finalizes it after Loom
// is done with it (MPI_Finalize fails if Loom had finalized it already).
int main(int argc, char **argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  if (worldRank() != 0) {
    auto &listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS();
  int anyFailed = 0;
  MPI_Allreduce(&failed, &anyFailed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  int finalized = 1;
  MPI_Finalized(&finalized);
  if (finalized) {
    std::fprintf(stderr, "Loom finalized the application's MPI\n");
    return 1;
  }
  MPI_Finalize();
  return anyFailed;
}
