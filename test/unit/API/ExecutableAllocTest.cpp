//===- ExecutableAllocTest.cpp - Heap allocations of a call ---------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The CPU JIT issue asks that a call allocate nothing beyond its outputs: no
// allocation per loop iteration, in the compiled code or around it. This
// binary counts, on the calling thread and only while a call runs:
//
//  - C++ allocations (operator new), which is how the API's host code
//    (argument packing, result buffers) allocates;
//  - C allocations (malloc, calloc, realloc, aligned_alloc, posix_memalign,
//    memalign), which is how JIT-compiled code allocates: memref.alloc
//    becomes a call to `aligned_alloc`, which the JIT resolves in this
//    process and so to the definitions below.
//
// Both replacements forward to glibc's own allocator (__libc_malloc and
// friends, exported for exactly this), so every block still comes from, and
// goes back to, one heap. free() is replaced too, so that the bytes of the
// blocks in use (malloc_usable_size) are known exactly, and repeated calls
// can be checked to leave them as they found them: glibc's own count
// (mallinfo2) also holds the blocks each thread caches after freeing them,
// whose number drifts from call to call where aligned_alloc splits blocks.
//
// The tests show that both counts are the same whatever the number of loop
// iterations, and that a call allocates nothing but its outputs: the
// returned vector, each output's shape and bytes, and whatever else the
// compiled code itself allocates.
//
//===----------------------------------------------------------------------===//

#include "ApiTestUtils.h"

#include "loom/Loom.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <new>
#include <string>
#include <type_traits>
#include <vector>

#include <malloc.h>

#if !defined(__GLIBC__)
#error "ExecutableAllocTest counts allocations through glibc's __libc_malloc"
#endif

extern "C" {
void *__libc_malloc(size_t size);
void *__libc_calloc(size_t count, size_t size);
void *__libc_realloc(void *ptr, size_t size);
void *__libc_memalign(size_t alignment, size_t size);
void __libc_free(void *ptr);
}

namespace {

/// Per thread, so nothing another thread does is counted.
struct Counters {
  bool on = false;
  long cAllocs = 0, cBytes = 0;
  long cxxAllocs = 0, cxxBytes = 0;
};
thread_local Counters counters;

/// The usable bytes of every block allocated and not yet freed, by any
/// thread, since the process started.
std::atomic<long> bytesInUse{0};

void *tracked(void *p) {
  if (p)
    bytesInUse += static_cast<long>(malloc_usable_size(p));
  return p;
}

void countC(size_t size) {
  if (counters.on) {
    ++counters.cAllocs;
    counters.cBytes += size;
  }
}

void *countedNew(size_t size, size_t alignment) {
  if (counters.on) {
    ++counters.cxxAllocs;
    counters.cxxBytes += size;
  }
  size = size ? size : 1;
  void *p = tracked(alignment > alignof(std::max_align_t)
                        ? __libc_memalign(alignment, size)
                        : __libc_malloc(size));
  if (!p)
    std::abort(); // The test never runs out of memory on purpose.
  return p;
}

} // namespace

//===----------------------------------------------------------------------===//
// The replacements
//===----------------------------------------------------------------------===//

extern "C" {
void *malloc(size_t size) {
  countC(size);
  return tracked(__libc_malloc(size));
}
void *calloc(size_t count, size_t size) {
  countC(count * size);
  return tracked(__libc_calloc(count, size));
}
void *realloc(void *ptr, size_t size) {
  countC(size);
  long old = ptr ? static_cast<long>(malloc_usable_size(ptr)) : 0;
  void *p = __libc_realloc(ptr, size);
  // A failed realloc keeps the old block; realloc(ptr, 0) frees it.
  if (p || size == 0)
    bytesInUse -= old;
  return tracked(p);
}
void *aligned_alloc(size_t alignment, size_t size) {
  countC(size);
  return tracked(__libc_memalign(alignment, size));
}
void *memalign(size_t alignment, size_t size) {
  countC(size);
  return tracked(__libc_memalign(alignment, size));
}
int posix_memalign(void **out, size_t alignment, size_t size) {
  countC(size);
  void *p = tracked(__libc_memalign(alignment, size));
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
void free(void *ptr) {
  if (ptr)
    bytesInUse -= static_cast<long>(malloc_usable_size(ptr));
  __libc_free(ptr);
}
}

void *operator new(size_t size) { return countedNew(size, 0); }
void *operator new[](size_t size) { return countedNew(size, 0); }
void *operator new(size_t size, const std::nothrow_t &) noexcept {
  return countedNew(size, 0);
}
void *operator new[](size_t size, const std::nothrow_t &) noexcept {
  return countedNew(size, 0);
}
void *operator new(size_t size, std::align_val_t a) {
  return countedNew(size, static_cast<size_t>(a));
}
void *operator new[](size_t size, std::align_val_t a) {
  return countedNew(size, static_cast<size_t>(a));
}
void operator delete(void *p) noexcept { std::free(p); }
void operator delete[](void *p) noexcept { std::free(p); }
void operator delete(void *p, size_t) noexcept { std::free(p); }
void operator delete[](void *p, size_t) noexcept { std::free(p); }
void operator delete(void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void *p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void *p, size_t, std::align_val_t) noexcept {
  std::free(p);
}
void operator delete[](void *p, size_t, std::align_val_t) noexcept {
  std::free(p);
}

using namespace loom;
using namespace loom::test;

namespace {

//===----------------------------------------------------------------------===//
// Measuring one call
//===----------------------------------------------------------------------===//

struct Allocations {
  long cAllocs, cBytes, cxxAllocs, cxxBytes;
  bool operator==(const Allocations &o) const {
    return cAllocs == o.cAllocs && cxxAllocs == o.cxxAllocs;
  }
};

std::ostream &operator<<(std::ostream &os, const Allocations &a) {
  return os << "{C: " << a.cAllocs << " blocks, " << a.cBytes
            << " B; C++: " << a.cxxAllocs << " blocks, " << a.cxxBytes << " B}";
}

/// Counts the allocations of one call, which must succeed. The outputs are
/// destroyed after counting stops: freeing is not an allocation.
template <typename Inputs>
Allocations measure(const Executable &exe, const Inputs &inputs) {
  counters = Counters();
  counters.on = true;
  Result<std::vector<HostBuffer>> out = [&] {
    if constexpr (std::is_same_v<Inputs, std::vector<HostBuffer>>)
      return exe.call(inputs);
    else
      return exe.callNamed(inputs);
  }();
  counters.on = false;
  EXPECT_TRUE(out.ok()) << out.message();
  return {counters.cAllocs, counters.cBytes, counters.cxxAllocs,
          counters.cxxBytes};
}

long numTensors(const std::vector<ValueInfo> &values) {
  long n = 0;
  for (const ValueInfo &v : values)
    n += !v.shape.empty();
  return n;
}

/// Everything one call may allocate when the compiled code allocates
/// `compiledAllocs` blocks (with malloc), one per tensor result among them:
///
///  - C++: one block for the returned vector, and each tensor output's shape
///    vector; the outputs adopt the compiled code's result blocks as they
///    are, and the arguments are packed on the stack;
///  - C: the compiled code's blocks, and each scalar output's bytes, which
///    HostBuffer keeps in malloc'd memory like an adopted block.
Allocations allowance(const Executable &exe, long compiledAllocs) {
  long outputs = long(exe.outputs().size());
  long tensors = numTensors(exe.outputs());
  return {compiledAllocs + outputs - tensors, 0, (outputs > 0) + tensors, 0};
}

/// The inputs of `named` by position, up to the last one given; one left
/// out before that gets its default here, since a call by position cannot
/// skip an input.
std::vector<HostBuffer>
byPosition(const Executable &exe,
           const std::map<std::string, HostBuffer> &named) {
  std::vector<HostBuffer> inputs;
  size_t given = 0;
  for (const ValueInfo &info : exe.inputs()) {
    if (given == named.size())
      break;
    auto it = named.find(info.name);
    if (it != named.end()) {
      inputs.push_back(it->second);
      ++given;
      continue;
    }
    EXPECT_TRUE(info.defaultValue.has_value()) << info.name;
    EXPECT_TRUE(info.dtype == DType::F32 || info.dtype == DType::I32);
    inputs.push_back(info.dtype == DType::F32
                         ? scalarF32(float(info.defaultValue.value_or(0)))
                         : scalarI32(int32_t(info.defaultValue.value_or(0))));
  }
  EXPECT_EQ(given, named.size()) << "inputs the entry does not take";
  return inputs;
}

// A loop whose trip count is an input, carrying a tensor it updates in place
// and a scalar.
constexpr const char *kLoop = R"mlir(
func.func @loop(%n: i32, %x: tensor<64xf32>) -> (tensor<64xf32>, f32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c64 = arith.constant 64 : i32
  %f0 = arith.constant 0.0 : f32
  %r:3 = scf.while (%i = %c0, %acc = %x, %s = %f0)
      : (i32, tensor<64xf32>, f32) -> (i32, tensor<64xf32>, f32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i, %acc, %s : i32, tensor<64xf32>, f32
  } do {
  ^bb0(%i: i32, %acc: tensor<64xf32>, %s: f32):
    %k = arith.remui %i, %c64 : i32
    %idx = arith.index_cast %k : i32 to index
    %v = tensor.extract %acc[%idx] : tensor<64xf32>
    %w = arith.addf %v, %v : f32
    %u = tensor.insert %w into %acc[%idx] : tensor<64xf32>
    %t = arith.addf %s, %w : f32
    %j = arith.addi %i, %c1 : i32
    scf.yield %j, %u, %t : i32, tensor<64xf32>, f32
  }
  return %r#1, %r#2 : tensor<64xf32>, f32
}
)mlir";

//===----------------------------------------------------------------------===//
// Tests
//===----------------------------------------------------------------------===//

TEST(ExecutableAllocTest, CountsTheCompiledCodesAllocations) {
  // The counting must see allocations made by JIT-compiled code, or the
  // other tests prove nothing about it: a result whose size is only known at
  // run time is allocated by the compiled code, at least as large as itself.
  CompileOptions options;
  options.entry = "fresh";
  auto exe = Executable::compile(R"mlir(
func.func @fresh(%n: i32) -> tensor<?xf32> {
  %size = arith.index_cast %n : i32 to index
  %e = tensor.empty(%size) : tensor<?xf32>
  %one = arith.constant 1.0 : f32
  %r = linalg.fill ins(%one : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
)mlir",
                                 options);
  ASSERT_TRUE(exe.ok()) << exe.message();
  constexpr int32_t kSize = 1 << 16;
  Allocations a = measure(*exe, std::vector<HostBuffer>{scalarI32(kSize)});
  EXPECT_GE(a.cAllocs, 1) << a;
  EXPECT_GE(a.cBytes, long(kSize * sizeof(float))) << a;
}

TEST(ExecutableAllocTest, LoopIterationsDoNotAllocate) {
  CompileOptions options;
  options.entry = "loop";
  auto exe = Executable::compile(kLoop, options);
  ASSERT_TRUE(exe.ok()) << exe.message();
  std::vector<HostBuffer> in = {
      scalarI32(0),
      owned<float>(DType::F32, {64}, std::vector<float>(64, 1.0f))};
  // Warm up: lazily built state (the first call's) is not per call.
  measure(*exe, in);
  Allocations base = measure(*exe, in);
  for (int32_t n : {1, 10, 1000, 100000}) {
    in[0] = scalarI32(n);
    EXPECT_EQ(measure(*exe, in), base) << n << " iterations";
  }
  EXPECT_EQ(base, allowance(*exe, 1)) << "the compiled code: 1 tensor result";
  std::cout << "loop (2 inputs, 2 outputs): " << base << "\n";
}

TEST(ExecutableAllocTest, SeedProgramsAllocateTheSameWhateverTheirStepCount) {
  // Each seed program over inputs that run its loops different numbers of
  // times (golden.md): the allocations must not change.
  struct Case {
    const char *file, *entry;
    std::vector<std::map<std::string, HostBuffer>> inputs;
    /// Buffers the compiled code allocates: its tensor results and nothing
    /// else (the SDE's 2-word leaf key reaches @vbt_w as two scalars).
    long compiledAllocs;
  };
  // Different numbers of inputs left out: defaults cost a call nothing.
  std::map<std::string, HostBuffer> odeShort, odeLong;
  odeShort["y0"] = init01(); // t1 0.1, dt0 0.01 by default: 8 steps
  odeLong["y0"] = init01();  // 54 steps
  odeLong["t1"] = scalarF32(1.0f);
  odeLong["dt0"] = scalarF32(0.05f);
  std::vector<Case> cases = {
      // Inner iterations 53, 47, 40.
      {"mwe/while_of_while.mlir",
       "solve",
       {mweLane(0), mweLane(1), mweLane(2)},
       1},
      {"diffrax/ode.mlir", "solve_ode", {odeShort, odeLong}, 1},
      // 93, 75 and 80 steps.
      {"diffrax/sde.mlir",
       "solve_sde",
       {sdeLane(0), sdeLane(1), sdeLane(2)},
       1},
  };
  for (const Case &c : cases) {
    auto exe = compileExample(c.file, c.entry);
    ASSERT_TRUE(exe.ok()) << exe.message();
    measure(*exe, c.inputs[0]);
    Allocations base = measure(*exe, c.inputs[0]);
    for (size_t i = 0; i < c.inputs.size(); ++i) {
      EXPECT_EQ(measure(*exe, c.inputs[i]), base) << c.file << " #" << i;
      EXPECT_EQ(measure(*exe, byPosition(*exe, c.inputs[i])), base)
          << c.file << " #" << i << " by position";
    }

    // Exactly the allowance, but for blocks the compiled code may allocate
    // besides its results.
    long tensors = numTensors(exe->outputs());
    Allocations least = allowance(*exe, tensors);
    EXPECT_EQ(base.cxxAllocs, least.cxxAllocs) << c.file << ": " << base;
    EXPECT_GE(base.cAllocs, least.cAllocs) << c.file << ": " << base;
    EXPECT_LE(base.cAllocs, allowance(*exe, c.compiledAllocs).cAllocs)
        << c.file << ": " << base;
    std::cout << c.entry << " (" << exe->inputs().size() << " inputs, "
              << exe->outputs().size() << " outputs): " << base << "\n";
  }
}

TEST(ExecutableAllocTest, InputsAreReadInPlace) {
  // A call's allocations do not grow with its inputs, by position or by
  // name: inputs are viewed, never copied. The result, a scalar, and the
  // vector returning it are all it allocates.
  CompileOptions options;
  options.entry = "sum";
  auto exe = Executable::compile(R"mlir(
func.func @sum(%x: tensor<?xf32> {loom.name = "x"}) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %v = tensor.extract %x[%i] : tensor<?xf32>
    %t = arith.addf %acc, %v : f32
    scf.yield %t : f32
  }
  return %s : f32
}
)mlir",
                                 options);
  ASSERT_TRUE(exe.ok()) << exe.message();
  for (int64_t n : {int64_t(16), int64_t(1) << 20}) {
    HostBuffer x = owned<float>(DType::F32, {n}, std::vector<float>(n, 1.0f));
    std::vector<HostBuffer> positional = {x};
    std::map<std::string, HostBuffer> named = {{"x", x}};
    for (Allocations a : {measure(*exe, positional), measure(*exe, named)}) {
      EXPECT_EQ(a, allowance(*exe, 0)) << n << " elements: " << a;
      EXPECT_LT(a.cxxBytes + a.cBytes, 1024) << n << " elements: " << a;
    }
  }
}

TEST(ExecutableAllocTest, ShardedCallsAllocateOnlyTheirOutputsHere) {
  // The MWE's batched @main on 2 shards: this thread runs shard 0 and joins
  // the shards' parts of the one output, ys, which is split. Its C++
  // allocations are the returned vector and the shapes of shard 0's part
  // and of the joined ys, whatever the batch. (Its C allocations are the
  // compiled code's, whose masked outer loop allocates per iteration, and
  // the joined ys's bytes.)
  CompileOptions options;
  options.entry = "main";
  options.shards = 2;
  auto exe =
      Executable::compileFile(examplePath("mwe/while_of_while.mlir"), options);
  ASSERT_TRUE(exe.ok()) << exe.message();
  ASSERT_EQ(exe->outputs().size(), 1u);
  for (int64_t batch : {2, 7, 30}) {
    std::vector<uint32_t> words =
        threefry::split(threefry::prngKey(0), batch, /*partitionable=*/false);
    std::map<std::string, HostBuffer> in;
    in["inits"] =
        owned<float>(DType::F32, {batch, 1}, std::vector<float>(batch, 0.1f));
    in["keys"] = owned<uint32_t>(DType::U32, {batch, 2}, words);
    measure(*exe, in);
    Allocations a = measure(*exe, in);
    EXPECT_EQ(a.cxxAllocs, 3) << batch << " lanes: " << a;
    EXPECT_EQ(measure(*exe, byPosition(*exe, in)).cxxAllocs, 3) << batch;
    if (batch == 30)
      std::cout << "main on 2 shards, 30 lanes, on the calling thread: " << a
                << "\n";
  }
}

TEST(ExecutableAllocTest, RepeatedCallsReturnTheHeapAsTheyFoundIt) {
  auto exe = compileExample("diffrax/sde.mlir", "solve_sde");
  ASSERT_TRUE(exe.ok()) << exe.message();
  std::map<std::string, HostBuffer> in = sdeLane(0);
  // Warm up, so glibc's per-thread caches hold the blocks a call uses.
  for (int i = 0; i < 3; ++i)
    ASSERT_TRUE(exe->callNamed(in).ok());
  long before = bytesInUse;
  for (int i = 0; i < 1000; ++i)
    ASSERT_TRUE(exe->callNamed(in).ok());
  long after = bytesInUse;
  EXPECT_EQ(after, before) << "bytes in use grew over 1000 calls";
}

} // namespace
