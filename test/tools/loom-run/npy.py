#!/usr/bin/env python3
# ===- npy.py - Read and write .npy files for loom-run's tests -----------=== #
#
# Part of the Loom project.
#
# ===----------------------------------------------------------------------=== #
#
# The lit tests must not need numpy, so this reads and writes the .npy format
# (numpy/lib/format.py) with struct alone. Reading parses the header
# independently of Loom's reader, so a file that only Loom can read fails here.
#
#   npy.py show FILE [--rtol R] [INDEX[=EXPECTED] ...]
#       prints the header, then element INDEX (flat, C order) of each
#       argument with 9 significant digits; with EXPECTED, appends "ok" or
#       "MISMATCH" (relative tolerance R, default 1e-6) and exits 1 on any
#       mismatch.
#   npy.py write FILE DESCR SHAPE VALUE...
#       writes a version 1.0 file, e.g. `write y0.npy '<f4' 1 0.1`; SHAPE is
#       `2x3`, or `-` for a scalar.
#
# ===----------------------------------------------------------------------=== #

import ast
import math
import struct
import sys

MAGIC = b"\x93NUMPY"
# NumPy dtype string -> struct format character.
# '<i2' is there only to write files that Loom must refuse.
FORMATS = {"<f4": "f", "<f8": "d", "<i4": "i", "<i8": "q", "<u4": "I",
           "|b1": "?", "<i2": "h"}


def read(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != MAGIC:
        sys.exit(f"{path}: bad magic string")
    major = data[6]
    if major == 1:
        (length,) = struct.unpack_from("<H", data, 8)
        start = 10
    else:
        (length,) = struct.unpack_from("<I", data, 8)
        start = 12
    header = ast.literal_eval(data[start:start + length].decode("latin1"))
    offset = start + length
    if offset % 64 != 0:
        sys.exit(f"{path}: data starts at {offset}, not 64-byte aligned")
    fmt = FORMATS[header["descr"]]
    count = math.prod(header["shape"])
    values = struct.unpack_from(f"<{count}{fmt}", data, offset)
    if offset + struct.calcsize(f"<{count}{fmt}") != len(data):
        sys.exit(f"{path}: {len(data) - offset} data bytes for {count} "
                 "elements")
    return header, values


def show(args):
    rtol = 1e-6
    if "--rtol" in args:
        at = args.index("--rtol")
        rtol = float(args[at + 1])
        del args[at:at + 2]
    path, picks = args[0], args[1:]
    header, values = read(path)
    print(f"descr={header['descr']} fortran_order={header['fortran_order']} "
          f"shape={header['shape']}")
    failed = False
    for pick in picks:
        index, _, expected = pick.partition("=")
        value = values[int(index)]
        line = f"[{index}] = {value:.9g}"
        if expected:
            want = float(expected)
            if abs(value - want) <= rtol * abs(want):
                line += " ok"
            else:
                line += f" MISMATCH expected {want:.17g}"
                failed = True
        print(line)
    return 1 if failed else 0


def write(args):
    path, descr, shape_text, texts = args[0], args[1], args[2], args[3:]
    shape = () if shape_text == "-" else tuple(
        int(d) for d in shape_text.split("x"))
    fmt = FORMATS[descr]
    convert = float if fmt in "fd" else int
    values = [convert(t) for t in texts]
    if len(values) != math.prod(shape):
        sys.exit(f"{len(values)} values for shape {shape}")
    header = repr({"descr": descr, "fortran_order": False, "shape": shape})
    header = header.encode("latin1")
    # Pad with spaces and a newline so the data starts at a multiple of 64.
    pad = 64 - (10 + len(header) + 1) % 64
    header += b" " * (pad % 64) + b"\n"
    with open(path, "wb") as f:
        f.write(MAGIC + b"\x01\x00" + struct.pack("<H", len(header)) + header)
        f.write(struct.pack(f"<{len(values)}{fmt}", *values))
    return 0


if __name__ == "__main__":
    command, rest = sys.argv[1], sys.argv[2:]
    sys.exit({"show": show, "write": write}[command](rest))
