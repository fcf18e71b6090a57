#!/usr/bin/env python3
"""Runs one loom-run program sharded in several ways and compares the bytes.

Every variant (shards x divergent x loop-sync) writes its results with
--output-dir; each .npy file must equal, byte for byte, the one written by
the reference run (--shards 1, every strategy on auto). Prints one line per
variant and a final PASS, or names the first file that differs and exits 1.

usage: shard_compare.py LOOM_RUN PROGRAM [--entry E] [--input NAME=SPEC]...
           [--npy NAME=f32:LO:HI:SHAPE]... [--shards 1,2,3,10]
           [--variants masked:global,masked:local,masked:auto,per-lane:auto]
           [--reference-divergent auto] [--print]
--npy writes uniform floats from a fixed seed to a .npy file (numpy-free)
and passes it as the input NAME, so that lanes start from different values.
--print prints every value of the reference's results, for FileCheck.
"""

import argparse
import os
import random
import struct
import subprocess
import sys
import tempfile


def write_f32_npy(path, shape, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        "%d," % shape[0] if len(shape) == 1 else
        "".join("%d, " % d for d in shape))
    header = header.ljust(((len(header) + 11) // 64 + 1) * 64 - 11) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%df" % len(values), *values))


def input_flags(specs, npy_specs, tmp):
    """--input flags for NAME=SPEC items and for NAME=f32:LO:HI:SHAPE items,
    whose uniform floats (from a fixed seed) go to a .npy file in tmp."""
    rng = random.Random(1)
    flags = []
    for spec in specs:
        flags += ["--input", spec]
    for spec in npy_specs:
        name, rest = spec.split("=", 1)
        kind, lo, hi, shape = rest.split(":")
        assert kind == "f32", spec
        shape = [int(d) for d in shape.split("x")]
        count = 1
        for d in shape:
            count *= d
        path = os.path.join(tmp, name + ".npy")
        write_f32_npy(path, shape,
                      [rng.uniform(float(lo), float(hi)) for _ in range(count)])
        flags += ["--input", "%s=%s" % (name, path)]
    return flags


def read_npy(path):
    """The flat values of a little-endian .npy file, numpy-free."""
    with open(path, "rb") as f:
        data = f.read()
    length = struct.unpack("<H", data[8:10])[0]
    header = eval(data[10:10 + length].decode("latin1"))
    fmt = {"<i4": "i", "<i8": "q", "<f4": "f", "<f8": "d", "|b1": "?"}
    code = fmt[header["descr"]]
    body = data[10 + length:]
    count = len(body) // struct.calcsize(code)
    return header["shape"], struct.unpack("<%d%s" % (count, code), body)


def run(loom_run, program, args, flags, out_dir):
    cmd = [loom_run, program] + args + flags + ["--output-dir", out_dir]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit("FAIL: %s\n%s%s" % (" ".join(cmd), proc.stdout, proc.stderr))
    return sorted(os.listdir(out_dir))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("loom_run")
    parser.add_argument("program")
    parser.add_argument("--entry", default="main")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--npy", action="append", default=[])
    parser.add_argument("--shards", default="1,2,3,10")
    parser.add_argument("--reference-divergent", default="auto")
    parser.add_argument("--print", action="store_true")
    parser.add_argument(
        "--variants",
        default="masked:global,masked:local,masked:auto,per-lane:auto")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="shard-compare-")

    # -O1 on every run, the reference included: the optimizer is not what
    # is compared (contraction is off, so no level changes float results),
    # and the seed programs' JIT time at -O3 would dominate the test.
    inputs = ["--entry", args.entry, "-O1"] + input_flags(args.input,
                                                          args.npy, tmp)

    ref_dir = os.path.join(tmp, "reference")
    files = run(args.loom_run, args.program, inputs,
                ["--shards", "1", "--divergent", args.reference_divergent],
                ref_dir)
    if not files:
        sys.exit("FAIL: the reference run wrote no results")
    reference = {}
    for name in files:
        with open(os.path.join(ref_dir, name), "rb") as f:
            reference[name] = f.read()
        if args.print:
            shape, values = read_npy(os.path.join(ref_dir, name))
            print("%s %s: %s" % (name[:-len(".npy")],
                                 "x".join(str(d) for d in shape) or "scalar",
                                 " ".join("%g" % v for v in values)))

    for shards in args.shards.split(","):
        for variant in args.variants.split(","):
            divergent, sync = variant.split(":")
            label = "shards=%s divergent=%s loop-sync=%s" % (shards, divergent,
                                                            sync)
            out_dir = os.path.join(tmp, "%s-%s-%s" % (shards, divergent, sync))
            got = run(args.loom_run, args.program, inputs,
                      ["--shards", shards, "--divergent", divergent,
                       "--loop-sync", sync], out_dir)
            if got != files:
                sys.exit("FAIL: %s wrote %s, the reference %s" %
                         (label, got, files))
            for name in files:
                with open(os.path.join(out_dir, name), "rb") as f:
                    if f.read() != reference[name]:
                        sys.exit("FAIL: %s: %s differs from shards=1" %
                                 (label, name))
            print("%s: %d files identical" % (label, len(files)))
    print("PASS")


if __name__ == "__main__":
    main()
