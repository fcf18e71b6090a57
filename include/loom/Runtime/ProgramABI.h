/*===- ProgramABI.h - The descriptor of an AOT-compiled program ---*- C -*-===*\
|*                                                                            *|
|* Part of the Loom project.                                                  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
/*
 * `loom-compile` writes a shared library that exports one symbol,
 * LOOM_PROGRAM_SYMBOL: a LoomProgram that says everything a caller needs to
 * call the entry exactly as the JIT's Executable does (the signature the
 * compiler read before lowering erased it, the mesh, the loop table), what
 * built it, and for which CPU. `loom::Executable::load` (loom/Loom.h) reads
 * it; any other loader may.
 *
 * Plain C, fixed-width fields, natural alignment. `magic` and `abiVersion`
 * come first in every version, so a loader can refuse a descriptor of
 * another version before it reads anything else. Any change below them
 * bumps LOOM_PROGRAM_ABI_VERSION, as does any change of the entry's calling
 * convention or of the runtime's function list
 * (loom/Runtime/RuntimeFunctions.def).
 */

#ifndef LOOM_RUNTIME_PROGRAMABI_H
#define LOOM_RUNTIME_PROGRAMABI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "LOOM" in a little-endian word. */
#define LOOM_PROGRAM_MAGIC 0x4d4f4f4cu
#define LOOM_PROGRAM_ABI_VERSION 3u
#define LOOM_PROGRAM_SYMBOL "loom_program"

/* One argument or result of the entry (loom::ValueInfo). */
typedef struct LoomProgramValue {
  /* The `loom.name`, or "arg<i>" / "result<i>". */
  const char *name;
  /* loom::DType's value: 0 f32, 1 f64, 2 i32, 3 i64, 4 u32, 5 i1. */
  int32_t dtype;
  int32_t rank;
  /* `rank` sizes; -1 marks a dynamic one. */
  const int64_t *shape;
  /* On a mesh: whether axis 0 is split across the shards. */
  int32_t split;
  int32_t hasDefault;
  double defaultValue;
  /* The `loom.range` [rangeLo, rangeHi], inclusive, when hasRange. */
  int32_t hasRange;
  int32_t reserved;
  int64_t rangeLo, rangeHi;
} LoomProgramValue;

/* Input `input`'s axis `axis` is a batch axis of group `group`: the inputs
 * one loom.vmap maps over together, whose batch sizes must agree. */
typedef struct LoomProgramBatchAxis {
  int64_t group, input, axis;
} LoomProgramBatchAxis;

/* A loop that loom-count-loop-iterations numbered (its index is its id). */
typedef struct LoomProgramLoop {
  /* "file:line:col" in the source. */
  const char *location;
  int32_t masked;
  /* The lanes each iteration of a masked loop covers when fixed (a gang's
   * width); 0 for the shard's lanes (loom::LoopCounters::lanes). */
  int32_t lanes;
  /* The timed variant the loop is in (a name of `variants`); "" for none. */
  const char *variant;
} LoomProgramLoop;

/* A loop nest compiled two ways, whose variant each shard picks by timing
 * (its index is its site number; loom::VariantCounters). */
typedef struct LoomProgramVariant {
  const char *location;
  const char *primary;
  const char *alternative;
} LoomProgramVariant;

typedef struct LoomProgram {
  uint32_t magic;
  uint32_t abiVersion;
  /* The Loom that compiled it: a loader refuses another one. */
  const char *loomVersion;
  /* "cpu", "mpi" or "gpu". */
  const char *backend;
  const char *targetTriple;
  const char *targetCPU;
  /* LLVM's features of targetCPU, "+avx,+avx2,...": the running CPU must
   * have every one of them. */
  const char *targetFeatures;
  /* The entry's name, and its packed wrapper: a pointer to every lowered
   * argument (then the shard's context on a mesh), then one to the result
   * struct. */
  const char *entryName;
  void (*entry)(void **);
  /* Shards of the mesh the entry runs on; 0 when it runs on none. */
  int64_t numShards;
  /* Compiled with loop counters (`--counters`). */
  int32_t counters;
  /* The runtime's entry points, in RuntimeFunctions.def's order: the loader
   * fills them in before the first call, so the library needs no symbol of
   * the process that loads it. */
  int32_t numRuntimeFunctions;
  void **runtimeFunctions;
  int64_t numInputs;
  const LoomProgramValue *inputs;
  int64_t numOutputs;
  const LoomProgramValue *outputs;
  int64_t numBatchAxes;
  const LoomProgramBatchAxis *batchAxes;
  int64_t numLoops;
  const LoomProgramLoop *loops;
  int64_t numVariants;
  const LoomProgramVariant *variants;
} LoomProgram;

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* LOOM_RUNTIME_PROGRAMABI_H */
