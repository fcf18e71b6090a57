//===- MPIMesh.h - One rank per shard, over MPI -----------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The MPI backend's runtime: a Mesh whose shards are the ranks of an MPI
// communicator, one shard per process, as pmap has one device per shard.
// Its collectives are MPI's, with the thread mesh's bits; its transport
// scatters a call's inputs from rank 0 and gathers the outputs back.
//
// No MPI type appears here: a communicator is passed as its Fortran handle
// (MPI_Comm_c2f), the standard way to hand one across a language or
// library boundary, so this header and loom/Loom.h build without mpi.h.
// In a build without MPI (-DLOOM_ENABLE_MPI=OFF) every function here
// returns the error "Loom was built without MPI".
//
// These live in their own library, LoomRuntimeMPI (Loom::RuntimeMPI), so that
// a program linking only the runtime needs no MPI: Executable::load then
// refuses a library compiled for the MPI backend, saying what to link.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_MPIMESH_H
#define LOOM_RUNTIME_MPIMESH_H

#include "loom/Runtime/Mesh.h"
#include "loom/Support/Status.h"

#include <cstdint>
#include <memory>
#include <optional>

namespace loom {

/// Whether this Loom was built with MPI.
bool mpiAvailable();

/// The size of the job: of `communicator` (a Fortran handle), or of
/// MPI_COMM_WORLD. Initializes MPI if nobody has (MPI_Init_thread, asking
/// for MPI_THREAD_SERIALIZED), and then finalizes it when the process exits;
/// MPI that the application initialized is used as it is and never
/// finalized by Loom.
Result<int32_t> mpiJobSize(std::optional<int32_t> communicator = {});

/// This process's place in MPI_COMM_WORLD; rank 0 of 1 when MPI is not
/// initialized (or not built in). Initializes nothing.
struct MPIWorld {
  int32_t rank = 0;
  int32_t size = 1;
};
MPIWorld mpiWorld();

/// A mesh of `numShards` shards, one per rank of `communicator` (default
/// MPI_COMM_WORLD). Touches MPI only when first used, so that creating one
/// (to write an ahead-of-time library, say) needs no MPI job; the first
/// run() fails if the job's size is not `numShards`.
///
/// Every rank calls run(), stats() and the transport's functions in the
/// same order. A rank that fails tells the others (a message on a
/// communicator of its own), so every rank's run returns the same error,
/// naming the failing rank, and none is left waiting; after a failed run
/// the mesh replaces the communicator its collectives used and is usable
/// again. stats() gathers every rank's counters, so it is collective too.
///
/// For tests, LOOM_TEST_FAIL_RANK=r makes rank r fail on entering its third
/// collective of a run, or at the end of the run if it enters fewer.
Result<std::unique_ptr<Mesh>>
createMPIMesh(int64_t numShards, std::optional<int32_t> communicator = {});

/// Ends every process of the job at once (MPI_Abort on MPI_COMM_WORLD) when
/// MPI is initialized; otherwise exits with `code`. For tools: an error on
/// one rank must not leave the others waiting for it.
[[noreturn]] void abortJob(int code);

} // namespace loom

#endif // LOOM_RUNTIME_MPIMESH_H
