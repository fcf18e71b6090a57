#!/usr/bin/env python3
"""The GPU check's helper, plain Python (no numpy: the build machine has none).

  gpu_check.py inputs DIR       writes the cases' random inputs as .npy and
                                DIR/cases.tsv (what gpu-check-build.sh compiles)
  gpu_check.py compare REF GOT CLASS
                                compares each REF/*.npy with GOT/*.npy: CLASS
                                `exact` wants the same bits, `ulp` reports the
                                largest distance in units in the last place
                                (and passes under LOOM_GPU_ULP, default 64)

The cases: the seed programs and the vmap test programs with a per-lane loop
(the entries test/GPU/ptxas.mlir compiles). `exact` for programs of + - * /
sqrt and integer ops only (correctly rounded on both sides); `ulp` for those
calling a transcendental (libdevice on the GPU, libm on the CPU).
"""
import os
import random
import struct
import sys

DTYPES = {"<f4": ("f", 4), "<f8": ("d", 8), "<i4": ("i", 4), "<i8": ("q", 8),
          "<u4": ("I", 4), "|b1": ("?", 1)}


def write_npy(path, dtype, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%d,), }" % (
        dtype, len(values))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    code, _ = DTYPES[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)))
        f.write(header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def read_npy(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:6] != b"\x93NUMPY":
        raise ValueError(path + ": not a .npy file")
    major = data[6]
    hlen = struct.unpack("<H" if major == 1 else "<I",
                         data[8:10] if major == 1 else data[8:12])[0]
    start = (10 if major == 1 else 12) + hlen
    header = eval(data[(10 if major == 1 else 12):start].decode("latin1"))
    code, size = DTYPES[header["descr"]]
    count = (len(data) - start) // size
    return header["descr"], struct.unpack("<%d%s" % (count, code),
                                          data[start:start + count * size])


def ordered(dtype, values):
    """Floats as integers in the order of the floats: ulp distance is a
    difference."""
    if dtype not in ("<f4", "<f8"):
        return None
    bits, fmt, sign = (32, "f", 1 << 31) if dtype == "<f4" else (64, "d", 1 << 63)
    icode = "i" if bits == 32 else "q"
    out = []
    for v in values:
        i = struct.unpack("<" + icode, struct.pack("<" + fmt, v))[0]
        out.append(i if i >= 0 else -sign - i)
    return out


def compare(ref_dir, got_dir, klass):
    bound = int(os.environ.get("LOOM_GPU_ULP", "64"))
    worst, ok = 0, True
    names = sorted(n for n in os.listdir(ref_dir) if n.endswith(".npy"))
    if not names:
        print("no reference outputs in " + ref_dir)
        return 1
    for name in names:
        got_path = os.path.join(got_dir, name)
        if not os.path.exists(got_path):
            print("%s: missing from the GPU's outputs" % name)
            ok = False
            continue
        rd, rv = read_npy(os.path.join(ref_dir, name))
        gd, gv = read_npy(got_path)
        if rd != gd or len(rv) != len(gv):
            print("%s: %s x %d on the CPU, %s x %d on the GPU" %
                  (name, rd, len(rv), gd, len(gv)))
            ok = False
            continue
        ro, go = ordered(rd, rv), ordered(gd, gv)
        if ro is None:
            bad = sum(1 for a, b in zip(rv, gv) if a != b)
            if bad:
                print("%s: %d of %d integers differ" % (name, bad, len(rv)))
                ok = False
            continue
        nan = lambda v: v != v
        ulps = [0 if (nan(a) and nan(b)) else abs(x - y)
                for a, b, x, y in zip(rv, gv, ro, go)]
        m = max(ulps) if ulps else 0
        worst = max(worst, m)
        if m and klass == "exact":
            print("%s: %d of %d values differ (max %d ulp), and this program "
                  "is correctly rounded on both sides" %
                  (name, sum(1 for u in ulps if u), len(ulps), m))
            ok = False
        elif m > bound:
            print("%s: max %d ulp, over the bound %d" % (name, m, bound))
            ok = False
    print("max_ulp=%d %s" % (worst, "ok" if ok else "FAILED"))
    return 0 if ok else 1


def inputs(out):
    rng = random.Random(15)
    os.makedirs(out, exist_ok=True)

    def uniform(name, lo, hi, n, dtype):
        path = os.path.join(out, name + ".npy")
        if dtype == "<i4":
            write_npy(path, dtype, [rng.randint(lo, hi) for _ in range(n)])
        else:
            # Values an f32 holds exactly, so both sides read the same ones.
            write_npy(path, dtype,
                      [struct.unpack("<f", struct.pack("<f", rng.uniform(lo, hi)))[0]
                       for _ in range(n)])
        return "%s=%s.npy" % (name.split(".")[-1], name)

    vmap = "test/Integration/vmap/Inputs/divergent.mlir"
    n = 1000
    cases = [
        # name, program, entry, class, inputs
        ("mwe_b3000", "python-free-examples/mwe/while_of_while.mlir", "main",
         "ulp", ["inits=fill:0.5:3000x1xf32", "keys=jax-split:0:3000"]),
        ("mwe_b1", "python-free-examples/mwe/while_of_while.mlir", "main",
         "ulp", ["inits=fill:0.5:1x1xf32", "keys=jax-split:0:1"]),
        ("sde_b300", "python-free-examples/diffrax/sde.mlir", "main", "ulp",
         ["inits=fill:0.5:300x1xf32", "keys=jax-split:0:300",
          "t1=fill:1.0:f32", "dt0=fill:0.05:f32", "max_steps=fill:10000:i32"]),
        ("sde_f64_b300", "python-free-examples/diffrax/sde_f64.mlir", "main",
         "ulp", ["inits=fill:0.5:300x1xf64", "keys=jax-split:0:300"]),
        ("ode_b300", "python-free-examples/diffrax/ode.mlir", "main", "ulp",
         ["inits=fill:0.5:300x1xf32"]),
        ("ode_f64_b300", "python-free-examples/diffrax/ode_f64.mlir", "main",
         "ulp", ["inits=fill:0.5:300x1xf64"]),
        ("collatz", vmap, "collatz_vmap", "exact",
         [uniform("collatz.xs", -3, 60, n, "<i4")]),
        ("nested", vmap, "nested_vmap", "exact",
         [uniform("nested.as", 0, 6, n, "<f4"),
          uniform("nested.bs", 0.1, 3, n, "<f4")]),
        ("three", vmap, "three_vmap", "exact",
         [uniform("three.ns", -2, 9, n, "<i4")]),
        ("grow", vmap, "grow_vmap", "exact",
         [uniform("grow.xs", 0, 20, n, "<f4"), "scale=fill:1.5:f32"]),
        ("save", vmap, "save_vmap", "exact",
         [uniform("save.rates", 0.3, 3, n, "<f4")]),
        ("branchy", vmap, "branchy_vmap", "exact",
         [uniform("branchy.xs", -2, 12, n, "<f4")]),
        ("trips", vmap, "trips_vmap", "ulp",  # math.sin in @weight
         [uniform("trips.ns", -1, 9, n, "<i4"),
          uniform("trips.xs", -1, 1, n, "<f4")]),
        ("uniform_loops", "test/GPU/Inputs/uniform-loops.mlir", "main",
         "exact", [uniform("uniform_loops.xs", -2, 2, n, "<f4")]),
        ("calls", vmap, "calls_vmap", "exact",
         [uniform("calls.xs", 0, 40, n, "<f4"),
          uniform("calls.limits", 2, 900, n, "<f4")]),
    ]
    with open(os.path.join(out, "cases.tsv"), "w") as f:
        for name, program, entry, klass, specs in cases:
            f.write("\t".join([name, program, entry, klass, " ".join(specs)])
                    + "\n")
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == "inputs":
        return inputs(argv[2])
    if len(argv) == 5 and argv[1] == "compare":
        return compare(argv[2], argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
