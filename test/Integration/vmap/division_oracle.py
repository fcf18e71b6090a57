#!/usr/bin/env python3
"""Checks ceil/floor integer division against Python's integer semantics.

Runs Inputs/division.mlir through loom-run: the unbatched @tensors entry,
and the vmapped @divs_main under every divergent strategy and shard count,
on lanes chosen to cover every sign combination, exact and inexact
quotients, a zero divisor (which the scalar program never divides by), and
INT_MAX / -1. Each result is compared with what Python's // gives:
floor(a / b) = a // b, ceil(a / b) = -(-a // b), and ceildivui on the
unsigned (mod 2**32) values. Prints one line per run and PASS, or the
first mismatch and exits 1. Only numpy-free Python.

usage: division_oracle.py LOOM_RUN PROGRAM
"""

import os
import struct
import subprocess
import sys
import tempfile

A = [-7, 7, -7, 7, -8, 0, 5, -1, 2**31 - 1, -(2**31) + 1, 1, -6, 6, -9, 9]
B = [2, -2, -2, 2, 2, 3, 0, 3, -1, 3, 7, -4, 4, 0, 1]
N = [3, 1, 2, 0, 4, 2, 5, 1, 3, 2, 3, 4, 2, 6, 3]


def s32(x):
    x &= 0xFFFFFFFF
    return x - (1 << 32) if x >> 31 else x


def floordiv(a, b):
    return a // b


def ceildiv(a, b):
    return -(-a // b)


def ceildivu(a, b):
    return s32(ceildiv(a & 0xFFFFFFFF, b & 0xFFFFFFFF))


def lane(a, b, n):
    """@divs on one lane, as the scalar program defines it."""
    if b == 0:
        return 0, 0, 0, 0
    acc = 0
    for k in range(n):
        x = s32(a - k)
        acc = s32(acc + (floordiv(x, b) ^ ceildiv(x, b)))
    return ceildiv(a, b), floordiv(a, b), ceildivu(a, b), acc


def write_i32(path, values):
    header = "{'descr': '<i4', 'fortran_order': False, 'shape': (%d,), }" % (
        len(values))
    header = header.ljust(((len(header) + 11) // 64 + 1) * 64 - 11) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%di" % len(values), *values))


def read_i32(path):
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    body = data[10 + length:]
    return list(struct.unpack("<%di" % (len(body) // 4), body))


def main():
    loom_run, program = sys.argv[1:3]
    tmp = tempfile.mkdtemp(prefix="division-oracle-")
    inputs = {}
    for name, values in (("a", A), ("b", B), ("n", N)):
        inputs[name] = os.path.join(tmp, name + ".npy")
        write_i32(inputs[name], values)

    def check(entry, names, flags, expected):
        out = os.path.join(tmp, "-".join([entry] + flags).replace("=", ""))
        cmd = [loom_run, program, "--entry", entry, "--output-dir", out]
        cmd += ["--input=%s=%s" % (n, inputs[n]) for n in names] + flags
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit("FAIL (exit %d): %s\n%s" %
                     (proc.returncode, " ".join(cmd), proc.stderr))
        for result, want in expected.items():
            got = read_i32(os.path.join(out, result + ".npy"))
            if got != want:
                sys.exit("FAIL: %s: %s = %s, Python gives %s" %
                         (" ".join(cmd), result, got, want))
        print("%s %s: %d results match" % (entry, " ".join(flags),
                                           len(expected)))

    nonzero = [b if b != 0 else 1 for b in B]
    check("tensors", ["a", "b"], [], {
        "c": [ceildiv(a, b) for a, b in zip(A, nonzero)],
        "f": [floordiv(a, b) for a, b in zip(A, nonzero)],
        "u": [ceildivu(a, b) for a, b in zip(A, nonzero)],
    })
    lanes = [lane(a, b, n) for a, b, n in zip(A, B, N)]
    expected = {name: [l[i] for l in lanes]
                for i, name in enumerate(["c", "f", "u", "acc"])}
    for divergent in ("masked", "per-lane", "auto"):
        for shards in (1, 2, 3):
            check("divs_main", ["a", "b", "n"],
                  ["--divergent=" + divergent, "--shards=%d" % shards],
                  expected)
    print("PASS")


if __name__ == "__main__":
    main()
