#!/usr/bin/env python3
"""The divergent-loop suite's inputs, and its strategy check.

Each program here declares its inputs in its header:

  // suite: split=fit|held-out
  // suite-input: NAME i32|f32 LO HI     one value per lane (below)
  // suite-input: NAME i32|f32 VALUE     a scalar every lane shares

Lane b of a batch takes j = (b mod 64) * m mod 64, a permutation of 0..63
with a different odd multiplier m for each input (37, 13, 29, 53, ...), so
64 distinct lanes are tiled over the batch and two inputs are not the same
ramp. f32: LO + (HI - LO) * j / 63, computed in double and rounded once;
i32: LO + floor((HI - LO) * j / 63). loom-bench-divergent (benchmarks/
DivergentBench.cpp) generates the same values.

usage: suite.py inputs PROGRAM BATCH DIR     write DIR/NAME.npy per input
       suite.py check LOOM_RUN PROGRAM BATCH
           runs @main under masked and per-lane at 1 and 2 shards, and
           gang and gang with refill (width 12, which divides no batch the
           tests use) at 1, 2 and 3, and fails unless every result is
           bit-identical across them all.
Only numpy-free Python: .npy files are written and read by hand.
"""

import os
import struct
import subprocess
import sys
import tempfile

MULTIPLIERS = [37, 13, 29, 53, 45, 21]
DTYPES = {"f32": ("<f4", "f"), "i32": ("<i4", "i")}


def parse(program):
    """Returns (split, [(name, dtype, lo, hi)]) with hi None for a scalar."""
    split, inputs = None, []
    with open(program) as f:
        for line in f:
            words = line.split()
            if words[:2] == ["//", "suite:"]:
                split = words[2].split("=")[1]
            elif words[:2] == ["//", "suite-input:"]:
                name, dtype = words[2], words[3]
                conv = float if dtype == "f32" else int
                lo = conv(words[4])
                hi = conv(words[5]) if len(words) > 5 else None
                inputs.append((name, dtype, lo, hi))
    if split not in ("fit", "held-out") or not inputs:
        sys.exit("suite.py: %s: no '// suite: split=' or inputs" % program)
    return split, inputs


def lane_values(index, dtype, lo, hi, batch):
    m = MULTIPLIERS[index % len(MULTIPLIERS)]
    values = []
    for b in range(batch):
        j = (b % 64) * m % 64
        if dtype == "f32":
            values.append(lo + (hi - lo) * j / 63.0)
        else:
            values.append(lo + (hi - lo) * j // 63)
    return values


def write_npy(path, dtype, shape, values):
    descr, fmt = DTYPES[dtype]
    dims = "%d," % shape[0] if len(shape) == 1 else "".join(
        "%d, " % d for d in shape)
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, dims)
    header = header.ljust(((len(header) + 11) // 64 + 1) * 64 - 11) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def write_inputs(program, batch, out):
    _, inputs = parse(program)
    paths = []
    for i, (name, dtype, lo, hi) in enumerate(inputs):
        path = os.path.join(out, name + ".npy")
        if hi is None:
            write_npy(path, dtype, (), [lo])
        else:
            write_npy(path, dtype, (batch,),
                      lane_values(i, dtype, lo, hi, batch))
        paths.append((name, path))
    return paths


# name: (flags, shard counts)
VARIANTS = [
    ("masked", ["--divergent=masked"], (1, 2)),
    ("per-lane", ["--divergent=per-lane"], (1, 2)),
    ("gang", ["--divergent=gang", "--gang-width=12"], (1, 2, 3)),
    ("gang+refill", ["--divergent=gang", "--gang-width=12", "--refill"],
     (1, 2, 3)),
]


def check(loom_run, program, batch):
    with tempfile.TemporaryDirectory() as tmp:
        inputs = write_inputs(program, batch, tmp)
        runs = {}
        for strategy, flags, shard_counts in VARIANTS:
            for shards in shard_counts:
                out = os.path.join(tmp, "%s-%d" % (strategy, shards))
                os.mkdir(out)
                cmd = [loom_run, program, "--entry=main"] + flags + [
                       "--shards=%d" % shards, "--output-dir=" + out]
                cmd += ["--input=%s=%s" % (n, p) for n, p in inputs]
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
                runs[(strategy, shards)] = {
                    n: open(os.path.join(out, n), "rb").read()
                    for n in sorted(os.listdir(out))}
        ref_key = ("per-lane", 1)
        ref = runs[ref_key]
        if not ref:
            sys.exit("suite.py: %s wrote no results" % program)
        ok = True
        for key, got in runs.items():
            if got != ref:
                ok = False
                print("MISMATCH %s shards=%d against per-lane shards=1: %s" % (
                    key[0], key[1],
                    [n for n in ref if got.get(n) != ref[n]]))
        for n in ref:
            print("%s: %d bytes, identical under masked, per-lane (1 and 2 "
                  "shards), gang and gang+refill (1, 2 and 3)" % (
                      n, len(ref[n])) if ok else "")
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1


def main(argv):
    if len(argv) == 5 and argv[1] == "inputs":
        write_inputs(argv[2], int(argv[3]), argv[4])
        return 0
    if len(argv) == 5 and argv[1] == "check":
        return check(argv[2], argv[3], int(argv[4]))
    sys.exit(__doc__)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
