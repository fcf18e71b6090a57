//===- NpyTest.cpp - .npy files, fill specs and host buffers --------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// numpy is not assumed to be installed: the files numpy writes are embedded
// as bytes, built from the layout of numpy/lib/format.py.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Npy.h"
#include "loom/Runtime/HostBuffer.h"
#include "loom/Runtime/InputSpec.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <malloc.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define LOOM_SANITIZER_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define LOOM_SANITIZER_ALLOCATOR 1
#endif
#endif
#ifdef LOOM_SANITIZER_ALLOCATOR
#include <sanitizer/allocator_interface.h>
#endif

using namespace loom;

namespace {

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// A directory of this process's own, so concurrent runs of the test (ctest
/// -j, or two build trees) do not overwrite each other's files.
const std::string &tempDir() {
  static const std::string dir = [] {
    std::string d =
        testing::TempDir() + "loom_npy_" + std::to_string(::getpid()) + "/";
    std::filesystem::create_directories(d);
    return d;
  }();
  return dir;
}

std::string tempPath(const std::string &name) { return tempDir() + name; }

class RemoveTempDir : public testing::Environment {
  void TearDown() override {
    std::error_code ec;
    std::filesystem::remove_all(tempDir(), ec);
  }
};
const testing::Environment *const kRemoveTempDir =
    testing::AddGlobalTestEnvironment(new RemoveTempDir);

void writeBytes(const std::string &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), bytes.size());
}

std::string readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// The bytes of a .npy file: version `major`.0, header `dict` padded as
/// numpy pads it, then `data`.
std::string npyFile(const std::string &dict, const std::string &data,
                    unsigned major = 1) {
  size_t lenBytes = major == 1 ? 2 : 4;
  size_t len = dict.size() + 1;
  len += 64 - (8 + lenBytes + len) % 64;
  std::string out("\x93NUMPY", 6);
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lenBytes; ++i)
    out += static_cast<char>((len >> (8 * i)) & 0xff);
  out += dict;
  out.append(len - dict.size() - 1, ' ');
  return out + '\n' + data;
}

std::string f32Bytes(std::vector<float> values) {
  return std::string(reinterpret_cast<const char *>(values.data()),
                     values.size() * sizeof(float));
}

/// Writes `bytes` to a fresh file and reads it back.
Result<HostBuffer> readFrom(const std::string &name, const std::string &bytes) {
  std::string path = tempPath(name);
  writeBytes(path, bytes);
  return readNpy(path);
}

/// Expects reading `bytes` to fail with a one-line message that names the
/// file and contains `needle`.
void expectReadError(const std::string &name, const std::string &bytes,
                     const std::string &needle) {
  Result<HostBuffer> r = readFrom(name, bytes);
  ASSERT_FALSE(r.ok()) << name;
  EXPECT_NE(r.message().find(needle), std::string::npos)
      << name << ": " << r.message();
  EXPECT_EQ(r.message().rfind(tempPath(name) + ": ", 0), 0u) << r.message();
  EXPECT_EQ(r.message().find('\n'), std::string::npos) << r.message();
}

const std::string kF32Dict23 =
    "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";

//===----------------------------------------------------------------------===//
// HostBuffer
//===----------------------------------------------------------------------===//

TEST(HostBuffer, DTypeNamesAndSizes) {
  for (DType d : {DType::F32, DType::F64, DType::I32, DType::I64, DType::U32,
                  DType::I1}) {
    Result<DType> parsed = parseDType(dtypeName(d));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, d);
  }
  EXPECT_EQ(*parseDType("bool"), DType::I1);
  EXPECT_EQ(*parseDType("ui32"), DType::U32);
  EXPECT_EQ(elementSize(DType::F64), 8u);
  EXPECT_EQ(elementSize(DType::U32), 4u);
  EXPECT_EQ(elementSize(DType::I1), 1u);
  Result<DType> bad = parseDType("f16");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("'f16'"), std::string::npos);
}

TEST(HostBuffer, ZerosOwnsZeroedMemory) {
  Result<HostBuffer> b = HostBuffer::zeros(DType::F64, {2, 3, 4});
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_FALSE(b->isView());
  EXPECT_EQ(b->numElements(), 24);
  EXPECT_EQ(b->byteSize(), 192u);
  EXPECT_EQ(b->typeString(), "2x3x4xf64");
  for (int64_t i = 0; i < 24; ++i)
    EXPECT_EQ(b->dataAs<double>()[i], 0.0);

  Result<HostBuffer> scalar = HostBuffer::zeros(DType::I32, {});
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->numElements(), 1);
  EXPECT_EQ(scalar->typeString(), "i32");
}

TEST(HostBuffer, CopyingOwnedCopiesBytesCopyingViewSharesThem) {
  HostBuffer owned = HostBuffer::zeros(DType::I32, {3}).take();
  HostBuffer copy = owned;
  copy.dataAs<int32_t>()[0] = 7;
  EXPECT_EQ(owned.dataAs<int32_t>()[0], 0);

  std::vector<int32_t> memory = {1, 2, 3, 4, 5, 6};
  HostBuffer view = HostBuffer::view(DType::I32, {2, 3}, memory.data()).take();
  EXPECT_TRUE(view.isView());
  EXPECT_EQ(view.data(), memory.data());
  HostBuffer viewCopy = view;
  viewCopy.dataAs<int32_t>()[5] = 60;
  EXPECT_EQ(memory[5], 60);
}

TEST(HostBuffer, RejectsBadShapes) {
  Result<HostBuffer> negative = HostBuffer::zeros(DType::F32, {2, -1});
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.message().find("negative dimension -1"), std::string::npos)
      << negative.message();

  Result<HostBuffer> huge =
      HostBuffer::zeros(DType::F64, {int64_t(1) << 31, int64_t(1) << 31});
  ASSERT_FALSE(huge.ok());
  EXPECT_NE(huge.message().find("too large"), std::string::npos)
      << huge.message();

  Result<HostBuffer> nullView = HostBuffer::view(DType::F32, {2}, nullptr);
  ASSERT_FALSE(nullView.ok());
  EXPECT_NE(nullView.message().find("null data"), std::string::npos);
  EXPECT_TRUE(HostBuffer::view(DType::F32, {0, 4}, nullptr).ok());
}

TEST(HostBuffer, AdoptsMallocdMemory) {
  // The data past the start of the block, as compiled code aligns it.
  auto *block = static_cast<uint8_t *>(std::malloc(16 + 3 * sizeof(int32_t)));
  ASSERT_NE(block, nullptr);
  auto *data = reinterpret_cast<int32_t *>(block + 16);
  for (int32_t i = 0; i < 3; ++i)
    data[i] = i + 1;
  Result<HostBuffer> b = HostBuffer::adopt(DType::I32, {3}, block, data);
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_FALSE(b->isView());
  EXPECT_EQ(b->data(), data);
  EXPECT_EQ(b->typeString(), "3xi32");

  // A copy owns bytes of its own; a move takes the block along.
  HostBuffer copy = *b;
  EXPECT_FALSE(copy.isView());
  EXPECT_NE(copy.data(), data);
  copy.dataAs<int32_t>()[0] = 7;
  EXPECT_EQ(data[0], 1);
  HostBuffer moved = std::move(*b);
  EXPECT_EQ(moved.data(), data);
  copy = moved;
  EXPECT_EQ(copy.dataAs<int32_t>()[0], 1);
  EXPECT_NE(copy.data(), data);
  moved = HostBuffer::zeros(DType::F32, {2}).take();
  EXPECT_EQ(copy.dataAs<int32_t>()[2], 3);
}

/// Bytes the allocator has handed out and not had back: glibc's count, or
/// the sanitizer's in a sanitizer build, whose allocator replaces glibc's
/// (mallinfo2 then reports nothing).
static size_t bytesInUse() {
#ifdef LOOM_SANITIZER_ALLOCATOR
  return __sanitizer_get_current_allocated_bytes();
#else
  return mallinfo2().uordblks;
#endif
}

TEST(HostBuffer, FreesWhatItAdopts) {
  // Larger than glibc's per-thread cache holds and smaller than it maps on
  // its own, so that freeing the block shows in the bytes in use.
  constexpr size_t kBytes = 64 << 10;
  size_t before = bytesInUse();
  {
    void *block = std::malloc(kBytes);
    ASSERT_NE(block, nullptr);
    HostBuffer b =
        HostBuffer::adopt(DType::F64, {kBytes / 8}, block, block).take();
    EXPECT_GE(bytesInUse(), before + kBytes);
  }
  EXPECT_LT(bytesInUse(), before + kBytes);

  // An array of no bytes keeps no block, as zeros() allocates none.
  void *block = std::malloc(16);
  ASSERT_NE(block, nullptr);
  HostBuffer empty = HostBuffer::adopt(DType::F32, {0, 4}, block, block).take();
  EXPECT_FALSE(empty.isView());
  EXPECT_EQ(empty.data(), nullptr);
}

TEST(HostBuffer, AdoptsNothingOnError) {
  // The caller keeps the block, and frees it.
  void *block = std::malloc(16);
  ASSERT_NE(block, nullptr);
  Result<HostBuffer> negative =
      HostBuffer::adopt(DType::F32, {-1}, block, block);
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.message().find("negative dimension -1"),
            std::string::npos);
  Result<HostBuffer> null = HostBuffer::adopt(DType::F32, {4}, block, nullptr);
  ASSERT_FALSE(null.ok());
  EXPECT_EQ(null.message(), "null memory to adopt for a 4xf32");
  EXPECT_FALSE(HostBuffer::adopt(DType::F32, {4}, nullptr, block).ok());
  std::free(block);
}

//===----------------------------------------------------------------------===//
// Round trips
//===----------------------------------------------------------------------===//

TEST(Npy, RoundTripsEveryDTypeAndRank) {
  const std::vector<std::vector<int64_t>> shapes = {{}, {5}, {2, 3, 4}, {0, 3}};
  for (DType dtype : {DType::F32, DType::F64, DType::I32, DType::I64,
                      DType::U32, DType::I1}) {
    for (const std::vector<int64_t> &shape : shapes) {
      HostBuffer b = HostBuffer::zeros(dtype, shape).take();
      auto *bytes = b.dataAs<uint8_t>();
      for (size_t i = 0; i < b.byteSize(); ++i)
        bytes[i] = dtype == DType::I1 ? i % 2 : uint8_t(i * 37 + 11);
      std::string path = tempPath("roundtrip.npy");
      ASSERT_TRUE(writeNpy(path, b).ok()) << b.typeString();
      Result<HostBuffer> r = readNpy(path);
      ASSERT_TRUE(r.ok()) << r.message();
      EXPECT_EQ(r->dtype(), dtype);
      EXPECT_EQ(r->shape(), shape);
      ASSERT_EQ(r->byteSize(), b.byteSize());
      if (b.byteSize() != 0) // memcmp must not get an empty buffer's null
        EXPECT_EQ(std::memcmp(r->data(), b.data(), b.byteSize()), 0)
            << b.typeString();
      // Data starts on a 64-byte boundary, right after the header's '\n'.
      std::string file = readBytes(path);
      size_t dataOffset = file.size() - b.byteSize();
      EXPECT_EQ(dataOffset % 64, 0u) << b.typeString();
      EXPECT_EQ(file[dataOffset - 1], '\n');
    }
  }
}

TEST(Npy, WritesViewsOfCallerMemory) {
  std::vector<double> memory = {0.5, -1.25, 3.0};
  HostBuffer view = HostBuffer::view(DType::F64, {3}, memory.data()).take();
  std::string path = tempPath("view.npy");
  ASSERT_TRUE(writeNpy(path, view).ok());
  Result<HostBuffer> r = readNpy(path);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_FALSE(r->isView());
  EXPECT_EQ(r->dataAs<double>()[1], -1.25);
}

//===----------------------------------------------------------------------===//
// Byte-exact agreement with numpy
//===----------------------------------------------------------------------===//

// np.save(f, np.arange(6, dtype='<f4').reshape(2, 3)): 'v' is the header
// length 118, the dict is followed by 58 spaces and '\n', data at byte 128.
const std::string kNumpyArange23 = std::string("\x93NUMPY\x01\x00v\x00", 10) +
                                   kF32Dict23 + std::string(58, ' ') + "\n" +
                                   f32Bytes({0, 1, 2, 3, 4, 5});

TEST(Npy, WriterReproducesNumpyBytes) {
  ASSERT_EQ(kNumpyArange23.size(), 128u + 24u);
  std::vector<float> values = {0, 1, 2, 3, 4, 5};
  HostBuffer b = HostBuffer::view(DType::F32, {2, 3}, values.data()).take();
  std::string path = tempPath("arange.npy");
  ASSERT_TRUE(writeNpy(path, b).ok());
  EXPECT_EQ(readBytes(path), kNumpyArange23);
}

TEST(Npy, ReadsNumpyBytes) {
  Result<HostBuffer> r = readFrom("numpy_arange.npy", kNumpyArange23);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->dtype(), DType::F32);
  EXPECT_EQ(r->shape(), (std::vector<int64_t>{2, 3}));
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(r->dataAs<float>()[i], float(i));
}

// np.save(f, np.float64(1.5)) and np.save(f, np.array([True, False])):
// a scalar gets no growth-axis spaces, a 1-d shape prints as (2,).
TEST(Npy, WriterMatchesNumpyScalarAndBool) {
  std::string scalarDict =
      "{'descr': '<f8', 'fortran_order': False, 'shape': (), }";
  double x = 1.5;
  std::string expected = std::string("\x93NUMPY\x01\x00v\x00", 10) +
                         scalarDict +
                         std::string(117 - scalarDict.size(), ' ') + "\n" +
                         std::string(reinterpret_cast<char *>(&x), 8);
  std::string path = tempPath("scalar.npy");
  ASSERT_TRUE(writeNpy(path, HostBuffer::view(DType::F64, {}, &x).take()).ok());
  EXPECT_EQ(readBytes(path), expected);

  uint8_t bools[2] = {1, 0};
  std::string boolDict =
      "{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }";
  ASSERT_TRUE(
      writeNpy(path, HostBuffer::view(DType::I1, {2}, bools).take()).ok());
  EXPECT_EQ(readBytes(path), std::string("\x93NUMPY\x01\x00v\x00", 10) +
                                 boolDict +
                                 std::string(117 - boolDict.size(), ' ') +
                                 "\n" + std::string("\x01\x00", 2));
}

// numpy pads a header that would end exactly on a 64-byte boundary with a
// further 64 bytes (padlen = 64 - 0). Here the dict plus its growth-axis
// spaces is 117 bytes, so 10 + 117 + 1 = 128 and the data starts at 192.
TEST(Npy, WriterPadsAFullBlockWhenAlreadyAligned) {
  std::vector<int64_t> shape(13, 1);
  shape.push_back(100);
  HostBuffer b = HostBuffer::zeros(DType::F32, shape).take();
  std::string path = tempPath("aligned.npy");
  ASSERT_TRUE(writeNpy(path, b).ok());
  std::string file = readBytes(path);
  EXPECT_EQ(file.size(), 192u + 400u);
  EXPECT_EQ(file.substr(8, 2), std::string("\xb6\x00", 2)); // 182
  EXPECT_EQ(file[191], '\n');
}

//===----------------------------------------------------------------------===//
// Format versions 2.0 and 3.0
//===----------------------------------------------------------------------===//

TEST(Npy, ReadsVersion2And3) {
  for (unsigned major : {2u, 3u}) {
    Result<HostBuffer> r =
        readFrom("v" + std::to_string(major) + ".npy",
                 npyFile(kF32Dict23, f32Bytes({0, 1, 2, 3, 4, 5}), major));
    ASSERT_TRUE(r.ok()) << r.message();
    EXPECT_EQ(r->shape(), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(r->dataAs<float>()[5], 5.0f);
  }
}

TEST(Npy, WritesVersion2WhenTheHeaderOutgrows16Bits) {
  std::vector<int64_t> shape(22000, 1);
  float value = 2.5f;
  std::string path = tempPath("v2.npy");
  ASSERT_TRUE(
      writeNpy(path, HostBuffer::view(DType::F32, shape, &value).take()).ok());
  std::string file = readBytes(path);
  EXPECT_EQ(file[6], '\x02');
  EXPECT_EQ((file.size() - 4) % 64, 0u);
  Result<HostBuffer> r = readNpy(path);
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->rank(), 22000u);
  EXPECT_EQ(r->dataAs<float>()[0], 2.5f);
}

//===----------------------------------------------------------------------===//
// Header dict parsing
//===----------------------------------------------------------------------===//

TEST(Npy, ParsesHeaderVariants) {
  struct Case {
    const char *dict;
    std::vector<int64_t> shape;
  };
  const Case cases[] = {
      {"{'shape': (3,), 'fortran_order': False, 'descr': '<f4'}", {3}},
      {"{ 'fortran_order' :False,'descr':'<f4' , 'shape':( 1 , 3 , ) , }",
       {1, 3}},
      {"{\"descr\": \"<f4\", \"fortran_order\": False, \"shape\": (3,)}", {3}},
      {"{'descr': '<f4',\n 'fortran_order': False,\n 'shape': (1L, 3L), }",
       {1, 3}},
      {"{'descr': '<f4', 'fortran_order': False, 'shape': (3, 1, 1), }",
       {3, 1, 1}},
  };
  for (const Case &c : cases) {
    Result<HostBuffer> r =
        readFrom("variant.npy", npyFile(c.dict, f32Bytes({7, 8, 9})));
    ASSERT_TRUE(r.ok()) << c.dict << ": " << r.message();
    EXPECT_EQ(r->shape(), c.shape) << c.dict;
    EXPECT_EQ(r->dataAs<float>()[2], 9.0f);
  }
}

TEST(Npy, NormalizesBoolBytes) {
  std::string dict =
      "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }";
  Result<HostBuffer> r =
      readFrom("bool.npy", npyFile(dict, std::string("\x02\x00\x01", 3)));
  ASSERT_TRUE(r.ok()) << r.message();
  EXPECT_EQ(r->dataAs<uint8_t>()[0], 1);
  EXPECT_EQ(r->dataAs<uint8_t>()[1], 0);
  EXPECT_EQ(r->dataAs<uint8_t>()[2], 1);
}

//===----------------------------------------------------------------------===//
// Bad files: each error names the file and the problem, on one line
//===----------------------------------------------------------------------===//

std::string dictWith(const std::string &descr, const std::string &shape,
                     const std::string &fortran = "False") {
  return "{'descr': " + descr + ", 'fortran_order': " + fortran +
         ", 'shape': " + shape + ", }";
}

TEST(NpyErrors, MissingFileAndDirectory) {
  Result<HostBuffer> r = readNpy(tempPath("does_not_exist.npy"));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("cannot open"), std::string::npos);
  EXPECT_NE(r.message().find("does_not_exist.npy"), std::string::npos);

  r = readNpy(testing::TempDir());
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.message().find("is a directory"), std::string::npos);
}

TEST(NpyErrors, TruncatedPreamble) {
  std::string good = kNumpyArange23;
  expectReadError("empty.npy", "", "truncated");
  expectReadError("magic_only.npy", good.substr(0, 4), "truncated");
  expectReadError("no_version.npy", good.substr(0, 7), "truncated");
  expectReadError("no_length.npy", good.substr(0, 9), "truncated");
  std::string v2 = npyFile(kF32Dict23, "", 2);
  expectReadError("no_length_v2.npy", v2.substr(0, 11), "truncated");
}

TEST(NpyErrors, CorruptMagicAndVersion) {
  std::string good = kNumpyArange23;
  expectReadError("magic.npy", "PK\x03\x04 this is a zip", "bad magic");
  std::string bad = good;
  bad[1] = 'M';
  expectReadError("magic2.npy", bad, "bad magic");
  bad = good;
  bad[6] = 4;
  expectReadError("version4.npy", bad, "version 4.0");
  bad = good;
  bad[7] = 1;
  expectReadError("version1_1.npy", bad, "version 1.1");
}

TEST(NpyErrors, HeaderLengthBeyondTheFile) {
  std::string bad = kNumpyArange23;
  bad[8] = '\xff';
  bad[9] = '\xff';
  expectReadError("hlen.npy", bad, "header length 65535 runs past the end");
  // A v2 length near 4 GiB must not be allocated before it is checked.
  std::string v2 = npyFile(kF32Dict23, "", 2);
  v2[8] = v2[9] = v2[10] = v2[11] = '\xff';
  expectReadError("hlen_v2.npy", v2, "header length 4294967295");
}

TEST(NpyErrors, DataShorterThanTheShape) {
  expectReadError("short.npy", npyFile(kF32Dict23, f32Bytes({0, 1, 2, 3, 4})),
                  "data is truncated: shape 2x3xf32 needs 24 bytes, the "
                  "file has 20");
  expectReadError("huge_but_valid.npy",
                  npyFile(dictWith("'<f8'", "(100000000000,)"), f32Bytes({1})),
                  "needs 800000000000 bytes");
}

// numpy.load ignores bytes after the data; Loom reads one array per file, so
// they mean the header describes less than was written.
TEST(NpyErrors, BytesAfterTheData) {
  expectReadError("trailing_data.npy",
                  npyFile(kF32Dict23, f32Bytes({0, 1, 2, 3, 4, 5}) + "xyz"),
                  "3 bytes after the data (shape 2x3xf32 needs 24 bytes)");
  expectReadError("empty_then_bytes.npy",
                  npyFile(dictWith("'<f4'", "(0,)"), "x"),
                  "1 bytes after the data (shape 0xf32 needs 0 bytes)");
}

// The padding numpy writes always ends in '\n': a header without it is not
// numpy's, even when the dict parses.
TEST(NpyErrors, HeaderWithoutItsNewline) {
  std::string bytes = npyFile(kF32Dict23, f32Bytes({0, 1, 2, 3, 4, 5}));
  size_t newline = bytes.size() - 24 - 1;
  ASSERT_EQ(bytes[newline], '\n');
  bytes[newline] = ' ';
  expectReadError("no_newline.npy", bytes,
                  "malformed header: it does not end with a newline");
  // A header length of zero has no newline either.
  std::string empty("\x93NUMPY\x01\x00\x00\x00", 10);
  expectReadError("empty_header.npy", empty,
                  "malformed header: it does not end with a newline");
}

TEST(NpyErrors, BadShapes) {
  expectReadError("negative.npy", npyFile(dictWith("'<f4'", "(2, -3)"), ""),
                  "negative dimension -3");
  expectReadError("overflow.npy",
                  npyFile(dictWith("'<f4'", "(4294967296, 4294967296)"), ""),
                  "shape 4294967296x4294967296xf32 is too large");
  expectReadError("bigdim.npy",
                  npyFile(dictWith("'<f4'", "(99999999999999999999,)"), ""),
                  "dimension 99999999999999999999 in shape is too large");
  expectReadError("not_tuple.npy", npyFile(dictWith("'<f4'", "(3)"), ""),
                  "expected ','");
  expectReadError("list.npy", npyFile(dictWith("'<f4'", "[3]"), ""),
                  "expected a tuple for 'shape'");
  expectReadError("float_dim.npy", npyFile(dictWith("'<f4'", "(3.5,)"), ""),
                  "expected ',' or ')'");
}

TEST(NpyErrors, UnsupportedDTypesAndOrder) {
  for (const char *descr : {"'>f4'", "'<u1'", "'<f2'", "'<c8'", "'|u1'"}) {
    expectReadError("dtype.npy",
                    npyFile(dictWith(descr, "(3,)"), "abcdefghijkl"),
                    "unsupported dtype " + std::string(descr));
  }
  expectReadError("structured.npy",
                  npyFile(dictWith("[('x', '<f4')]", "(3,)"), ""),
                  "structured dtype");
  expectReadError("fortran.npy",
                  npyFile(dictWith("'<f4'", "(2, 3)", "True"), ""),
                  "fortran_order is True");
  // A dtype with control characters is quoted escaped, so the message stays
  // on one line.
  expectReadError("escaped.npy", npyFile(dictWith("'<f\n4'", "(3,)"), ""),
                  "unsupported dtype '<f\\x0a4'");
}

TEST(NpyErrors, MalformedDicts) {
  std::string shape = "'shape': (3,)";
  expectReadError("nobrace.npy", npyFile("'descr': '<f4'", ""),
                  "malformed header: expected '{'");
  expectReadError("missing.npy", npyFile("{'descr': '<f4', " + shape + "}", ""),
                  "header has no 'fortran_order' key");
  expectReadError("duplicate.npy",
                  npyFile("{'descr': '<f4', 'fortran_order': False, " + shape +
                              ", " + shape + "}",
                          ""),
                  "duplicate key 'shape'");
  expectReadError("extra.npy",
                  npyFile("{'descr': '<f4', 'fortran_order': False, " + shape +
                              ", 'align': True}",
                          ""),
                  "unexpected key 'align'");
  expectReadError("unterminated.npy", npyFile("{'descr: <f4}", ""),
                  "unterminated string");
  expectReadError("fortran_int.npy",
                  npyFile(dictWith("'<f4'", "(3,)", "0"), ""),
                  "expected True or False");
  expectReadError("trailing.npy", npyFile(dictWith("'<f4'", "(3,)") + "x", ""),
                  "unexpected text after the dict");
  expectReadError("unclosed.npy",
                  npyFile("{'descr': '<f4', 'fortran_order': False", ""),
                  "expected ',' or '}'");
}

TEST(NpyErrors, UnwritablePath) {
  HostBuffer b = HostBuffer::zeros(DType::F32, {2}).take();
  std::string path = tempPath("no_such_dir/out.npy");
  Status s = writeNpy(path, b);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("cannot write"), std::string::npos);
  EXPECT_NE(s.message().find("no_such_dir/out.npy"), std::string::npos);
}

//===----------------------------------------------------------------------===//
// Fill specs
//===----------------------------------------------------------------------===//

TEST(FillSpec, BuildsConstantBuffers) {
  Result<HostBuffer> f = parseFillSpec("fill:0.1:30x1xf32");
  ASSERT_TRUE(f.ok()) << f.message();
  EXPECT_EQ(f->typeString(), "30x1xf32");
  for (int i = 0; i < 30; ++i)
    EXPECT_EQ(f->dataAs<float>()[i], 0.1f);

  Result<HostBuffer> scalar = parseFillSpec("fill:0.1:f32");
  ASSERT_TRUE(scalar.ok()) << scalar.message();
  EXPECT_EQ(scalar->rank(), 0u);
  EXPECT_EQ(scalar->dataAs<float>()[0], 0.1f);

  Result<HostBuffer> d = parseFillSpec("fill:-2.5e-3:2xf64");
  ASSERT_TRUE(d.ok()) << d.message();
  EXPECT_EQ(d->dataAs<double>()[1], -2.5e-3);

  Result<HostBuffer> i = parseFillSpec("fill:3:4xi32");
  ASSERT_TRUE(i.ok()) << i.message();
  EXPECT_EQ(i->dataAs<int32_t>()[3], 3);

  Result<HostBuffer> l = parseFillSpec("fill:-9000000000:2x2xi64");
  ASSERT_TRUE(l.ok()) << l.message();
  EXPECT_EQ(l->dataAs<int64_t>()[3], -9000000000);

  Result<HostBuffer> u = parseFillSpec("fill:4294967295:u32");
  ASSERT_TRUE(u.ok()) << u.message();
  EXPECT_EQ(u->dataAs<uint32_t>()[0], 4294967295u);

  Result<HostBuffer> b = parseFillSpec("fill:true:3xi1");
  ASSERT_TRUE(b.ok()) << b.message();
  EXPECT_EQ(b->dataAs<uint8_t>()[2], 1);

  Result<HostBuffer> plus = parseFillSpec("fill:+1e3:f32");
  ASSERT_TRUE(plus.ok()) << plus.message();
  EXPECT_EQ(plus->dataAs<float>()[0], 1000.0f);

  Result<HostBuffer> empty = parseFillSpec("fill:1:0x3xf32");
  ASSERT_TRUE(empty.ok()) << empty.message();
  EXPECT_EQ(empty->numElements(), 0);
}

TEST(FillSpec, RejectsBadSpecs) {
  struct Case {
    const char *spec;
    const char *needle;
  };
  const Case cases[] = {
      {"0.1:f32", "expected fill:VALUE:TYPE"},
      {"fill:0.1", "expected fill:VALUE:TYPE"},
      {"fill::f32", "missing value"},
      {"fill:abc:f32", "value 'abc' is not a valid f32"},
      {"fill:0.1x:f32", "value '0.1x' is not a valid f32"},
      {"fill:1.5:i32", "value '1.5' is not a valid i32"},
      {"fill:-1:u32", "value '-1' is not a valid u32"},
      {"fill:3000000000:i32", "value '3000000000' is out of range for i32"},
      {"fill:1e40:f32", "value '1e40' is out of range for f32"},
      {"fill:2:i1", "value '2' is not a valid i1"},
      {"fill:1:3xf16", "unknown element type 'f16'"},
      {"fill:1:3x", "unknown element type ''"},
      {"fill:1:f32:4", "unknown element type 'f32:4'"},
      {"fill:1:3x-2xf32", "bad dimension '-2'"},
      {"fill:1:3xxf32", "bad dimension ''"},
      {"fill:1:x3xf32", "bad dimension ''"},
      {"fill:1:99999999999x99999999999xf32", "too large"},
  };
  for (const Case &c : cases) {
    Result<HostBuffer> r = parseFillSpec(c.spec);
    ASSERT_FALSE(r.ok()) << c.spec;
    EXPECT_NE(r.message().find(c.needle), std::string::npos)
        << c.spec << ": " << r.message();
    EXPECT_EQ(r.message().rfind(std::string("fill spec '") + c.spec + "'", 0),
              0u)
        << r.message();
  }
}

} // namespace
