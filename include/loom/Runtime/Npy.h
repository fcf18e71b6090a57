//===- Npy.h - NumPy .npy files ---------------------------------*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// How `loom-run` and the C++ API get arrays in and out: NumPy's .npy format
// (numpy/lib/format.py, NEP 1); generated inputs are in InputSpec.h. Only
// the six little-endian C-order dtypes that map onto a DType are accepted,
// because compiled code takes exactly those; anything else is reported, not
// converted.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_RUNTIME_NPY_H
#define LOOM_RUNTIME_NPY_H

#include "loom/Runtime/HostBuffer.h"
#include "loom/Support/Status.h"

#include <string>

namespace loom {

/// Reads a .npy file of format version 1.0, 2.0 or 3.0 whose dtype is one of
/// '<f4' '<f8' '<i4' '<i8' '<u4' '|b1', in C order. The result owns its data.
/// Every failure, including a truncated or corrupt file, is a one-line error
/// that starts with the path. Stricter than numpy.load: the header must end
/// with its newline, and the file must end with the data (numpy ignores
/// bytes after it).
Result<HostBuffer> readNpy(const std::string &path);

/// Writes `buffer` as numpy.save would: format 1.0 (2.0 when the header does
/// not fit in 1.0), the same header text and padding, data aligned to 64
/// bytes, so the file is byte-identical to numpy's.
Status writeNpy(const std::string &path, const HostBuffer &buffer);

} // namespace loom

#endif // LOOM_RUNTIME_NPY_H
