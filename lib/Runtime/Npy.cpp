//===- Npy.cpp - Read and write NumPy .npy files --------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The layout, from numpy/lib/format.py: the magic "\x93NUMPY", a major and a
// minor version byte, the header length (uint16 in 1.0, uint32 in 2.0 and
// 3.0, little-endian), then the header, a Python dict literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// padded with spaces and a final '\n' so the data starts on a 64-byte
// boundary, then the raw data.
//
// The reader treats the file as untrusted: each length is checked against
// the file size before anything is allocated or read, so a corrupt file
// costs an error message, never a crash or a huge allocation.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Npy.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "Loom's .npy reader and writer assume a little-endian host"
#endif

namespace loom {
namespace {

constexpr std::string_view kMagic("\x93NUMPY", 6);
// Magic plus the two version bytes.
constexpr size_t kPrefixLen = kMagic.size() + 2;
constexpr size_t kAlign = 64;
// numpy leaves room for the growth axis to reach this many digits, so that
// an appending writer can rewrite the header in place.
constexpr size_t kGrowthAxisMaxDigits = 21;

struct DescrName {
  std::string_view descr;
  DType dtype;
};
constexpr DescrName kDescrs[] = {{"<f4", DType::F32}, {"<f8", DType::F64},
                                 {"<i4", DType::I32}, {"<i8", DType::I64},
                                 {"<u4", DType::U32}, {"|b1", DType::I1}};

std::string_view descrOf(DType dtype) {
  for (const DescrName &d : kDescrs)
    if (d.dtype == dtype)
      return d.descr;
  return "?";
}

/// Header text quoted in a message: escaped so the message stays one line,
/// and shortened so a corrupt header does not flood the terminal.
std::string printable(std::string_view text) {
  constexpr size_t kMaxShown = 40;
  std::string out;
  for (size_t i = 0; i < text.size() && i < kMaxShown; ++i) {
    unsigned char c = text[i];
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  if (text.size() > kMaxShown)
    out += "...";
  return out;
}

struct Header {
  DType dtype;
  std::vector<int64_t> shape;
};

/// Parses the header dict. numpy evaluates it with ast.literal_eval; this
/// accepts the subset numpy writes, in any key order and spacing, with or
/// without a trailing comma.
class HeaderParser {
public:
  explicit HeaderParser(std::string_view text) : text(text) {}

  Result<Header> parse();

private:
  Status error(std::string_view what) const {
    return Status::error(
        fmt::format("malformed header: {} at offset {}", what, pos));
  }
  void skipSpace() {
    while (pos < text.size() && (text[pos] == ' ' || text[pos] == '\t' ||
                                 text[pos] == '\n' || text[pos] == '\r'))
      ++pos;
  }
  /// Skips spaces, then consumes `c` if it is next.
  bool consume(char c) {
    skipSpace();
    if (pos < text.size() && text[pos] == c) {
      ++pos;
      return true;
    }
    return false;
  }
  bool consumeWord(std::string_view word) {
    skipSpace();
    if (text.substr(pos, word.size()) != word)
      return false;
    pos += word.size();
    return true;
  }

  Result<std::string> parseString();
  Result<DType> parseDescr();
  Result<bool> parseBool();
  Result<int64_t> parseDim();
  Result<std::vector<int64_t>> parseShape();

  std::string_view text;
  size_t pos = 0;
};

Result<std::string> HeaderParser::parseString() {
  skipSpace();
  if (pos >= text.size() || (text[pos] != '\'' && text[pos] != '"'))
    return error("expected a string");
  char quote = text[pos];
  size_t end = text.find(quote, pos + 1);
  if (end == std::string_view::npos)
    return error("unterminated string");
  std::string s(text.substr(pos + 1, end - pos - 1));
  pos = end + 1;
  return s;
}

Result<DType> HeaderParser::parseDescr() {
  skipSpace();
  if (pos < text.size() && text[pos] == '[')
    return Status::error("unsupported structured dtype (expected one of <f4 "
                         "<f8 <i4 <i8 <u4 |b1)");
  Result<std::string> descr = parseString();
  if (!descr)
    return descr.status();
  for (const DescrName &d : kDescrs)
    if (*descr == d.descr)
      return d.dtype;
  return Status::error(
      fmt::format("unsupported dtype '{}' (expected one of <f4 <f8 <i4 <i8 "
                  "<u4 |b1, little-endian)",
                  printable(*descr)));
}

Result<bool> HeaderParser::parseBool() {
  if (consumeWord("True"))
    return true;
  if (consumeWord("False"))
    return false;
  return error("expected True or False for 'fortran_order'");
}

Result<int64_t> HeaderParser::parseDim() {
  skipSpace();
  size_t start = pos;
  bool negative = pos < text.size() && text[pos] == '-';
  if (negative)
    ++pos;
  if (pos >= text.size() || text[pos] < '0' || text[pos] > '9')
    return error("expected a dimension");
  int64_t value = 0;
  bool overflow = false;
  for (; pos < text.size() && text[pos] >= '0' && text[pos] <= '9'; ++pos)
    overflow |= __builtin_mul_overflow(value, 10, &value) ||
                __builtin_add_overflow(value, text[pos] - '0', &value);
  // Python 2 numpy wrote longs with an 'L' suffix.
  if (pos < text.size() && text[pos] == 'L')
    ++pos;
  std::string_view digits = text.substr(start, pos - start);
  if (negative)
    return Status::error(
        fmt::format("negative dimension {} in shape", printable(digits)));
  if (overflow)
    return Status::error(
        fmt::format("dimension {} in shape is too large", printable(digits)));
  return value;
}

Result<std::vector<int64_t>> HeaderParser::parseShape() {
  if (!consume('('))
    return error("expected a tuple for 'shape'");
  std::vector<int64_t> shape;
  if (consume(')'))
    return shape;
  while (true) {
    Result<int64_t> dim = parseDim();
    if (!dim)
      return dim.status();
    shape.push_back(*dim);
    if (consume(')')) {
      // `(3)` is the integer 3 in Python, not a tuple.
      if (shape.size() == 1)
        return error("expected ',' after the only dimension");
      return shape;
    }
    if (!consume(','))
      return error("expected ',' or ')' in 'shape'");
    if (consume(')'))
      return shape;
  }
}

Result<Header> HeaderParser::parse() {
  if (!consume('{'))
    return error("expected '{'");
  std::optional<DType> dtype;
  std::optional<bool> fortranOrder;
  std::optional<std::vector<int64_t>> shape;
  while (!consume('}')) {
    Result<std::string> key = parseString();
    if (!key)
      return key.status();
    if (!consume(':'))
      return error(fmt::format("expected ':' after '{}'", printable(*key)));
    bool duplicate = false;
    if (*key == "descr") {
      duplicate = dtype.has_value();
      Result<DType> value = parseDescr();
      if (!value)
        return value.status();
      dtype = *value;
    } else if (*key == "fortran_order") {
      duplicate = fortranOrder.has_value();
      Result<bool> value = parseBool();
      if (!value)
        return value.status();
      fortranOrder = *value;
    } else if (*key == "shape") {
      duplicate = shape.has_value();
      Result<std::vector<int64_t>> value = parseShape();
      if (!value)
        return value.status();
      shape = value.take();
    } else {
      // numpy rejects extra keys too; the file was not written by numpy.
      return Status::error(
          fmt::format("unexpected key '{}' in header", printable(*key)));
    }
    if (duplicate)
      return Status::error(
          fmt::format("duplicate key '{}' in header", printable(*key)));
    if (!consume(',')) {
      if (!consume('}'))
        return error("expected ',' or '}'");
      break;
    }
  }
  skipSpace();
  if (pos != text.size())
    return error("unexpected text after the dict");
  for (auto [present, name] :
       {std::pair{dtype.has_value(), "descr"},
        std::pair{fortranOrder.has_value(), "fortran_order"},
        std::pair{shape.has_value(), "shape"}})
    if (!present)
      return Status::error(fmt::format("header has no '{}' key", name));
  if (*fortranOrder)
    return Status::error("fortran_order is True; only C-order arrays are "
                         "supported (save np.ascontiguousarray(x))");
  return Header{*dtype, std::move(*shape)};
}

struct FileCloser {
  void operator()(std::FILE *f) const { std::fclose(f); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

uint64_t readLittleEndian(const unsigned char *bytes, size_t n) {
  uint64_t value = 0;
  for (size_t i = 0; i < n; ++i)
    value |= static_cast<uint64_t>(bytes[i]) << (8 * i);
  return value;
}

/// The magic, version, header length and padded header numpy writes in front
/// of the data, for a header dict `dict`.
std::string npyPreamble(const std::string &dict) {
  // numpy pads even when already aligned: a header that would end exactly on
  // the boundary gets a full kAlign of spaces.
  auto paddedLen = [&](size_t lenBytes) {
    size_t len = dict.size() + 1;
    return len + kAlign - (kPrefixLen + lenBytes + len) % kAlign;
  };
  unsigned major = 1;
  size_t lenBytes = 2;
  size_t headerLen = paddedLen(lenBytes);
  if (headerLen > 0xffff) {
    major = 2;
    lenBytes = 4;
    headerLen = paddedLen(lenBytes);
  }
  std::string out(kMagic);
  out += static_cast<char>(major);
  out += '\0';
  for (size_t i = 0; i < lenBytes; ++i)
    out += static_cast<char>((headerLen >> (8 * i)) & 0xff);
  out += dict;
  out.append(headerLen - dict.size() - 1, ' ');
  out += '\n';
  return out;
}

} // namespace

Result<HostBuffer> readNpy(const std::string &path) {
  auto fail = [&](const std::string &message) {
    return Status::error(fmt::format("{}: {}", path, message));
  };
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    return fail("is a directory, not a .npy file");
  File file(std::fopen(path.c_str(), "rb"));
  if (!file)
    return fail(fmt::format("cannot open: {}", std::strerror(errno)));
  if (std::fseek(file.get(), 0, SEEK_END) != 0)
    return fail("cannot determine the file size");
  long fileSizeOrError = std::ftell(file.get());
  if (fileSizeOrError < 0)
    return fail("cannot determine the file size");
  uint64_t fileSize = static_cast<uint64_t>(fileSizeOrError);
  std::rewind(file.get());

  unsigned char prefix[kPrefixLen + 4];
  size_t got = std::fread(prefix, 1, kPrefixLen, file.get());
  if (std::string_view(reinterpret_cast<char *>(prefix),
                       std::min(got, kMagic.size())) !=
      kMagic.substr(0, std::min(got, kMagic.size())))
    return fail("not a .npy file (bad magic string)");
  if (got < kPrefixLen)
    return fail(fmt::format("truncated .npy file ({} bytes)", fileSize));
  unsigned major = prefix[6], minor = prefix[7];
  if (major < 1 || major > 3 || minor != 0)
    return fail(fmt::format(
        "unsupported .npy format version {}.{} (expected 1.0, 2.0 or 3.0)",
        major, minor));
  size_t lenBytes = major == 1 ? 2 : 4;
  if (std::fread(prefix + kPrefixLen, 1, lenBytes, file.get()) != lenBytes)
    return fail(fmt::format("truncated .npy file ({} bytes)", fileSize));
  uint64_t headerLen = readLittleEndian(prefix + kPrefixLen, lenBytes);
  uint64_t dataOffset = kPrefixLen + lenBytes + headerLen;
  if (dataOffset > fileSize)
    return fail(
        fmt::format("header length {} runs past the end of the file ({} bytes)",
                    headerLen, fileSize));

  std::string text(headerLen, '\0');
  if (std::fread(text.data(), 1, headerLen, file.get()) != headerLen)
    return fail("read error in the header");
  // numpy always ends the padding with '\n'; a header without it was cut
  // short or not written by numpy.
  if (text.empty() || text.back() != '\n')
    return fail("malformed header: it does not end with a newline");
  Result<Header> header = HeaderParser(text).parse();
  if (!header)
    return fail(header.message());

  Result<int64_t> count = checkedNumElements(header->dtype, header->shape);
  if (!count)
    return fail(count.message());
  uint64_t dataBytes =
      static_cast<uint64_t>(*count) * elementSize(header->dtype);
  if (fileSize - dataOffset < dataBytes)
    return fail(fmt::format(
        "data is truncated: shape {} needs {} bytes, the file has {}",
        typeString(header->dtype, header->shape), dataBytes,
        fileSize - dataOffset));
  // numpy.load would ignore them (several arrays saved one after another
  // into one file), but loom-run names one array per file: bytes past it
  // mean the header's shape is not the array that was written.
  if (fileSize - dataOffset > dataBytes)
    return fail(fmt::format("{} bytes after the data (shape {} needs {} bytes)",
                            fileSize - dataOffset - dataBytes,
                            typeString(header->dtype, header->shape),
                            dataBytes));

  Result<HostBuffer> buffer =
      HostBuffer::zeros(header->dtype, std::move(header->shape));
  if (!buffer)
    return fail(buffer.message());
  // An empty buffer may have a null data pointer, which fread must not get.
  if (dataBytes != 0 &&
      std::fread(buffer->data(), 1, dataBytes, file.get()) != dataBytes)
    return fail("read error in the data");
  // Compiled code assumes i1 bytes are 0 or 1; numpy reads any nonzero byte
  // as True, so map it to what numpy means.
  if (header->dtype == DType::I1) {
    auto *bytes = buffer->dataAs<uint8_t>();
    for (int64_t i = 0; i < *count; ++i)
      bytes[i] = bytes[i] != 0;
  }
  return buffer;
}

Status writeNpy(const std::string &path, const HostBuffer &buffer) {
  // Python's repr of a tuple: (), (3,), (2, 3).
  std::string shape = "(";
  for (size_t i = 0; i < buffer.rank(); ++i)
    shape += fmt::format("{}{}", i == 0 ? "" : ", ", buffer.shape()[i]);
  shape += buffer.rank() == 1 ? ",)" : ")";
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': {}, }}",
                  descrOf(buffer.dtype()), shape);
  if (buffer.rank() > 0)
    dict.append(kGrowthAxisMaxDigits -
                    fmt::formatted_size("{}", buffer.shape()[0]),
                ' ');
  std::string preamble = npyPreamble(dict);

  File file(std::fopen(path.c_str(), "wb"));
  if (!file)
    return Status::error(
        fmt::format("{}: cannot write: {}", path, std::strerror(errno)));
  errno = 0;
  // As in readNpy, an empty buffer's data pointer may be null.
  bool wrote = std::fwrite(preamble.data(), 1, preamble.size(), file.get()) ==
                   preamble.size() &&
               (buffer.byteSize() == 0 ||
                std::fwrite(buffer.data(), 1, buffer.byteSize(), file.get()) ==
                    buffer.byteSize());
  // fclose flushes, so its failure (a full disk) is a write failure too.
  bool closed = std::fclose(file.release()) == 0;
  if (!wrote || !closed) {
    int error = errno;
    // Leave no half-written file that a later run could mistake for output.
    std::remove(path.c_str());
    return Status::error(
        fmt::format("{}: cannot write: {}", path,
                    error ? std::strerror(error) : "write failed"));
  }
  return Status::success();
}

} // namespace loom
