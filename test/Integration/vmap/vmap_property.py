#!/usr/bin/env python3
"""Property check for loom-vmap: vmap(f)(xs)[b] == f(xs[b]) bit for bit.

For one program, runs the vmapped entry through loom-run under every
divergent-loop strategy (and every --variant), for every batch size, runs the
scalar function on each lane's inputs, and compares the raw bytes of every
result lane. Inputs are generated from a fixed seed (floats, ints), listed
explicitly (NaN, infinities, raw bit patterns) or are JAX keys (jax-split), so
runs repeat.

usage: vmap_property.py LOOM_RUN PROGRAM --batch B[,B...] --vmapped ENTRY
           --scalar FUNC --arg NAME[/LANE_NAME]:KIND[:...] ...
           --result LANE_NAME:NAME ... [--variant NAME:FLAGS ...]
  --batch      batch sizes (a comma list, or repeated; 0 is allowed). Lane b
               gets the same inputs at every batch size, so the scalar
               function runs once per lane of the largest batch (keys aside).
  --strategies the default variants, one --divergent=S run each
               (masked,per-lane,auto; "" for none).
  --variant    one more vmapped run, NAME:FLAGS with FLAGS the extra loom-run
               flags in shell syntax, e.g. "m-s3:--divergent masked --shards 3".
  KIND: f32:LO:HI:SHAPE     uniform floats (SHAPE like 1x3, or - for a scalar)
        i32:LO:HI:SHAPE     uniform integers in [LO, HI)
        f32-list:V,...:SHAPE  the listed values in turn, over lanes and
                            elements: floats, nan, -nan, inf, -inf, or raw
                            bits as 0x7fa00000
        i32-list:V,...:SHAPE  the same for integers
        key:SEED            jax.random.split(PRNGKey(SEED), B), a key a lane
                            (an empty i32 array of keys at batch 0)
        shared-f32:VALUE    an unbatched scalar every lane shares
Only numpy-free Python: .npy files are read and written by hand.
"""

import argparse
import ast
import concurrent.futures
import os
import random
import shlex
import struct
import subprocess
import sys
import tempfile

DTYPES = {"f32": ("<f4", "f", 4), "i32": ("<i4", "i", 4), "u32": ("<u4", "I", 4),
          "bool": ("|b1", "?", 1)}


def pack(dtype, value):
    """The bytes of one element; f32 raw bits (0x...) are kept exactly."""
    if dtype == "f32" and isinstance(value, str):
        return struct.pack("<I", int(value, 16))
    return struct.pack("<" + DTYPES[dtype][1], value)


def write_npy(path, dtype, shape, values):
    descr = DTYPES[dtype][0]
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (
        descr, "".join("%d, " % d for d in shape) if len(shape) != 1 else
        "%d," % shape[0])
    header = header.ljust(((len(header) + 11) // 64 + 1) * 64 - 11) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(b"".join(pack(dtype, v) for v in values))


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


def parse_value(kind, text):
    if kind == "i32":
        return int(text, 0)
    if text.lower().startswith("0x"):
        return text
    return float(text)


def lane_values(kind, rest, rng, lanes, count):
    """Each lane's `count` elements, for the numeric KINDs."""
    if kind.endswith("-list"):
        kind = kind[:-len("-list")]
        values = [parse_value(kind, v) for v in rest[0].split(",")]
        flat = [values[i % len(values)] for i in range(lanes * count)]
        return kind, [flat[b * count:(b + 1) * count] for b in range(lanes)]
    lo, hi = rest[:2]
    if kind == "f32":
        draw = lambda: rng.uniform(float(lo), float(hi))
    else:
        draw = lambda: rng.randrange(int(lo), int(hi))
    return kind, [[draw() for _ in range(count)] for _ in range(lanes)]


class Inputs:
    """The --input flags of the vmapped run at each batch size, and of the
    scalar run on each lane."""

    def __init__(self, specs, batches, tmp, rng):
        self.batched = {b: [] for b in batches}
        self.lane = {b: [[] for _ in range(b)] for b in batches}
        most = max(batches)
        for spec in specs:
            name, kind, *rest = spec.split(":")
            name, lane_name = (name.split("/") + [name])[:2]
            if kind == "key":
                # split(key, B) depends on B, so a lane's key does too.
                # jax-split wants a positive count; no lanes have no keys.
                seed = int(rest[0])
                empty = os.path.join(tmp, "%s.b0.npy" % name)
                write_npy(empty, "i32", (0, 2), [])
                for batch in batches:
                    self.batched[batch].append(
                        "%s=jax-split:%d:%d" % (name, seed, batch) if batch
                        else "%s=%s" % (name, empty))
                    for b in range(batch):
                        self.lane[batch][b].append("%s=jax-split:%d:%d:%d" %
                                                   (lane_name, seed, batch, b))
                continue
            if kind == "shared-f32":
                path = os.path.join(tmp, "%s.npy" % name)
                write_npy(path, "f32", (), [float(rest[0])])
                for batch in batches:
                    self.batched[batch].append("%s=%s" % (name, path))
                    for b in range(batch):
                        self.lane[batch][b].append("%s=%s" % (lane_name, path))
                continue
            shape = parse_shape(rest[-1])
            count = 1
            for d in shape:
                count *= d
            dtype, lanes = lane_values(kind, rest, rng, most, count)
            for b in range(most):
                path = os.path.join(tmp, "%s.%d.npy" % (name, b))
                write_npy(path, dtype, shape, lanes[b])
                for batch in batches:
                    if b < batch:
                        self.lane[batch][b].append("%s=%s" % (lane_name, path))
            for batch in batches:
                path = os.path.join(tmp, "%s.b%d.npy" % (name, batch))
                write_npy(path, dtype, (batch,) + shape, sum(lanes[:batch], []))
                self.batched[batch].append("%s=%s" % (name, path))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("loom_run")
    parser.add_argument("program")
    parser.add_argument("--batch", "--batches", action="append", required=True)
    parser.add_argument("--vmapped", required=True)
    parser.add_argument("--scalar", required=True)
    parser.add_argument("--arg", action="append", default=[])
    parser.add_argument("--result", action="append", default=[])
    parser.add_argument("--strategies", default="masked,per-lane,auto")
    parser.add_argument("--variant", action="append", default=[])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=min(4, os.cpu_count() or 1))
    args = parser.parse_args()
    batches = sorted({int(b) for spec in args.batch for b in spec.split(",")})
    variants = [(s, ["--divergent=" + s]) for s in args.strategies.split(",")
                if s]
    for spec in args.variant:
        name, sep, flags = spec.partition(":")
        if not sep or not name:
            parser.error("--variant wants NAME:FLAGS, not '%s'" % spec)
        variants.append((name, shlex.split(flags)))
    results = [r.split(":") for r in args.result]

    with tempfile.TemporaryDirectory(prefix="vmap-property-") as tmp:
        inputs = Inputs(args.arg, batches, tmp, random.Random(args.seed))

        def run(entry, flags, out):
            cmd = [args.loom_run, args.program, "--entry=" + entry,
                   "--output-dir=" + out] + ["--input=" + i for i in flags[0]]
            cmd += flags[1]
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                return "FAIL: %s\n%s" % (shlex.join(cmd), proc.stderr)
            return None

        # Every run is independent: the scalar one for each distinct lane
        # input, and the vmapped one for each variant and batch size.
        lane_out, jobs = {}, []
        for batch in batches:
            for b in range(batch):
                key = tuple(inputs.lane[batch][b])
                if key not in lane_out:
                    lane_out[key] = os.path.join(tmp, "lane%d" % len(lane_out))
                    jobs.append((args.scalar, (key, []), lane_out[key]))
        vmap_out = {}
        for name, flags in variants:
            for batch in batches:
                out = os.path.join(tmp, "vmap-%d-%d" % (len(vmap_out), batch))
                vmap_out[name, batch] = out
                jobs.append((args.vmapped, (inputs.batched[batch], flags), out))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            errors = [e for e in pool.map(lambda j: run(*j), jobs) if e]
        if errors:
            sys.exit(errors[0])

        failures = 0
        for name, _ in variants:
            checked = 0
            for batch in batches:
                out = vmap_out[name, batch]
                for lane_name, batched_name in results:
                    shape, data = read_npy(
                        os.path.join(out, batched_name + ".npy"))
                    if shape[0] != batch:
                        sys.exit("FAIL: %s batch %d: %s has shape %s" %
                                 (name, batch, batched_name, shape))
                    size = len(data) // batch if batch else 0
                    if batch == 0 and data:
                        sys.exit("FAIL: %s batch 0: %s has %d bytes" %
                                 (name, batched_name, len(data)))
                    for b in range(batch):
                        want = read_npy(os.path.join(
                            lane_out[tuple(inputs.lane[batch][b])],
                            lane_name + ".npy"))[1]
                        got = data[b * size:(b + 1) * size]
                        if got != want:
                            failures += 1
                            print("MISMATCH %s batch %d lane %d result %s: "
                                  "%s != %s" % (name, batch, b, batched_name,
                                                got.hex(), want.hex()))
                checked += batch
            print("%s: %d lanes checked in batches %s" %
                  (name, checked, ",".join(map(str, batches))))
    if failures:
        sys.exit("FAIL: %d mismatches" % failures)
    print("PASS")


if __name__ == "__main__":
    main()
