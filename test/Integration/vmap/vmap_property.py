#!/usr/bin/env python3
"""Property check for loom-vmap: vmap(f)(xs)[b] == f(xs[b]) bit for bit.

For one program, runs the vmapped entry through loom-run under every
divergent-loop strategy, runs the scalar function on each lane's inputs, and
compares the raw bytes of every result lane. Inputs are generated from a
fixed seed (floats, ints) or are JAX keys (jax-split), so runs repeat.

usage: vmap_property.py LOOM_RUN PROGRAM --batch B --vmapped ENTRY
           --scalar FUNC --arg NAME[/LANE_NAME]:KIND[:...] ...
           --result LANE_NAME:NAME ...
  KIND: f32:LO:HI:SHAPE  uniform floats (SHAPE like 1x3, or - for a scalar)
        i32:LO:HI:SHAPE  uniform integers in [LO, HI)
        key:SEED         jax.random.split(PRNGKey(SEED), B), one key per lane
        shared-f32:VALUE an unbatched scalar every lane shares
Only numpy-free Python: .npy files are read and written by hand.
"""

import argparse
import ast
import os
import random
import struct
import subprocess
import sys
import tempfile

DTYPES = {"f32": ("<f4", "f", 4), "i32": ("<i4", "i", 4), "u32": ("<u4", "I", 4),
          "bool": ("|b1", "?", 1)}


def write_npy(path, dtype, shape, values):
    descr, fmt, _ = DTYPES[dtype]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1 else
        "%d," % shape[0])
    header = header.ljust(((len(header) + 11) // 64 + 1) * 64 - 11) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    assert data[:6] == b"\x93NUMPY", path
    major = data[6]
    if major == 1:
        (hlen,) = struct.unpack("<H", data[8:10])
        start = 10
    else:
        (hlen,) = struct.unpack("<I", data[8:12])
        start = 12
    header = ast.literal_eval(data[start:start + hlen].decode("latin1"))
    return header["shape"], data[start + hlen:]


def parse_shape(text):
    return () if text == "-" else tuple(int(d) for d in text.split("x"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("loom_run")
    parser.add_argument("program")
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--vmapped", required=True)
    parser.add_argument("--scalar", required=True)
    parser.add_argument("--arg", action="append", default=[])
    parser.add_argument("--result", action="append", default=[])
    parser.add_argument("--strategies", default="masked,per-lane,auto")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    batch = args.batch
    tmp = tempfile.mkdtemp(prefix="vmap-property-")

    batched_inputs, lane_inputs = [], [[] for _ in range(batch)]
    for spec in args.arg:
        name, kind, *rest = spec.split(":")
        name, lane_name = (name.split("/") + [name])[:2]
        if kind == "key":
            seed = int(rest[0])
            batched_inputs.append("%s=jax-split:%d:%d" % (name, seed, batch))
            for b in range(batch):
                lane_inputs[b].append("%s=jax-split:%d:%d:%d" %
                                      (lane_name, seed, batch, b))
            continue
        if kind == "shared-f32":
            path = os.path.join(tmp, "%s.npy" % name)
            write_npy(path, "f32", (), [float(rest[0])])
            batched_inputs.append("%s=%s" % (name, path))
            for b in range(batch):
                lane_inputs[b].append("%s=%s" % (lane_name, path))
            continue
        lo, hi, shape = rest
        shape = parse_shape(shape)
        count = 1
        for d in shape:
            count *= d
        lanes = []
        for b in range(batch):
            if kind == "f32":
                lanes.append([rng.uniform(float(lo), float(hi))
                              for _ in range(count)])
            else:
                lanes.append([rng.randrange(int(lo), int(hi))
                              for _ in range(count)])
        path = os.path.join(tmp, "%s.npy" % name)
        write_npy(path, kind, (batch,) + shape, sum(lanes, []))
        batched_inputs.append("%s=%s" % (name, path))
        for b in range(batch):
            lane_path = os.path.join(tmp, "%s.%d.npy" % (name, b))
            write_npy(lane_path, kind, shape, lanes[b])
            lane_inputs[b].append("%s=%s" % (lane_name, lane_path))

    def run(entry, inputs, out, extra=()):
        cmd = [args.loom_run, args.program, "--entry=" + entry,
               "--output-dir=" + out] + ["--input=" + i for i in inputs]
        cmd += list(extra)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit("FAIL: %s\n%s" % (" ".join(cmd), proc.stderr))

    expected = []
    for b in range(batch):
        out = os.path.join(tmp, "lane%d" % b)
        run(args.scalar, lane_inputs[b], out)
        expected.append({r: read_npy(os.path.join(out, r + ".npy"))[1]
                         for r, _ in (x.split(":") for x in args.result)})

    failures = 0
    for strategy in args.strategies.split(","):
        out = os.path.join(tmp, "vmap-" + strategy)
        run(args.vmapped, batched_inputs, out, ["--divergent=" + strategy])
        for spec in args.result:
            lane_name, batched_name = spec.split(":")
            shape, data = read_npy(os.path.join(out, batched_name + ".npy"))
            assert shape[0] == batch, shape
            size = len(data) // batch
            for b in range(batch):
                got = data[b * size:(b + 1) * size]
                if got != expected[b][lane_name]:
                    failures += 1
                    print("MISMATCH %s lane %d result %s: %s != %s" %
                          (strategy, b, batched_name, got.hex(),
                           expected[b][lane_name].hex()))
        print("%s: %d lanes checked" % (strategy, batch))
    if failures:
        sys.exit("FAIL: %d mismatches" % failures)
    print("PASS")


if __name__ == "__main__":
    main()
