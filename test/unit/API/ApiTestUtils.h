//===- ApiTestUtils.h - Helpers for the embedded API tests ------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Buffers, keys and the seed programs' golden values, for the API tests that
// are built as separate binaries (plain, ThreadSanitizer, counting
// allocator). Only the public API is used, as an embedding program would.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TEST_UNIT_API_APITESTUTILS_H
#define LOOM_TEST_UNIT_API_APITESTUTILS_H

#include "loom/Loom.h"
#include "loom/Support/Threefry.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace loom::test {

/// The seed programs, from the source tree (LOOM_EXAMPLES_DIR is set by
/// test/unit/CMakeLists.txt).
inline std::string examplePath(const std::string &relative) {
  return std::string(LOOM_EXAMPLES_DIR) + "/" + relative;
}

/// An owned buffer holding `values` (which must match the shape).
template <typename T>
HostBuffer owned(DType dtype, std::vector<int64_t> shape,
                 const std::vector<T> &values) {
  Result<HostBuffer> buffer = HostBuffer::zeros(dtype, std::move(shape));
  EXPECT_TRUE(buffer.ok()) << buffer.message();
  EXPECT_EQ(buffer->byteSize(), values.size() * sizeof(T));
  // An empty buffer has no block: memcpy must not see its null data.
  if (buffer->byteSize() != 0)
    std::memcpy(buffer->data(), values.data(), buffer->byteSize());
  return buffer.take();
}

inline HostBuffer scalarF32(float v) {
  return owned<float>(DType::F32, {}, {v});
}
inline HostBuffer scalarI32(int32_t v) {
  return owned<int32_t>(DType::I32, {}, {v});
}
inline HostBuffer init01() { return owned<float>(DType::F32, {1}, {0.1f}); }

/// Key `index` of jax.random.split(PRNGKey(seed), count), as the uint32 pair
/// the programs' tensor<2xi32> keys take.
inline HostBuffer splitKey(int32_t seed, size_t count, size_t index) {
  std::vector<uint32_t> words =
      threefry::split(threefry::prngKey(seed), count, /*partitionable=*/false);
  return owned<uint32_t>(DType::U32, {2},
                         {words[2 * index], words[2 * index + 1]});
}

template <typename T>
T scalarOf(const HostBuffer &buffer) {
  EXPECT_EQ(buffer.numElements(), 1);
  return *buffer.dataAs<T>();
}

/// Same dtype, shape and bytes.
inline bool sameBits(const HostBuffer &a, const HostBuffer &b) {
  return a.dtype() == b.dtype() && a.shape() == b.shape() &&
         std::memcmp(a.data(), b.data(), a.byteSize()) == 0;
}

inline bool sameBits(const std::vector<HostBuffer> &a,
                     const std::vector<HostBuffer> &b) {
  if (a.size() != b.size())
    return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (!sameBits(a[i], b[i]))
      return false;
  return true;
}

/// shared/reference/golden.md, "The pure-JAX MWE": y of lanes 0-2.
inline constexpr double kMweY[] = {13.51270866394043, 11.670805931091309,
                                   11.079654693603516};

/// golden.md, "diffrax SDE", t1 = 1.0, dt0 = 0.05: steps, accepted,
/// rejected of lanes 0-2 over keys split(PRNGKey(0), 300).
inline constexpr int32_t kSdeSteps[][3] = {
    {93, 61, 32}, {75, 52, 23}, {80, 56, 24}};

/// The named inputs of golden.md's SDE configuration for one lane; a
/// max_steps above the slowest lane's 284, so none is cut short.
inline std::map<std::string, HostBuffer> sdeLane(size_t lane) {
  std::map<std::string, HostBuffer> in;
  in["y0"] = init01();
  in["key"] = splitKey(0, 300, lane);
  in["t1"] = scalarF32(1.0f);
  in["dt0"] = scalarF32(0.05f);
  in["max_steps"] = scalarI32(10000);
  return in;
}

/// The named inputs of the MWE's `solve` for one lane of 30.
inline std::map<std::string, HostBuffer> mweLane(size_t lane) {
  std::map<std::string, HostBuffer> in;
  in["init"] = init01();
  in["key"] = splitKey(0, 30, lane);
  return in;
}

inline Result<Executable> compileExample(const std::string &relative,
                                         const std::string &entry) {
  CompileOptions options;
  options.entry = entry;
  return Executable::compileFile(examplePath(relative), options);
}

} // namespace loom::test

#endif // LOOM_TEST_UNIT_API_APITESTUTILS_H
