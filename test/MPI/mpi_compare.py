#!/usr/bin/env python3
"""Runs a program on MPI ranks and on the thread mesh, and compares them.

For every rank count and variant (divergent:loop-sync), the program is
compiled once for each backend with loom-compile (--backend mpi and
--backend cpu, --shards N, --counters), then run with loom-exec: under
`MPIRUN N` for the MPI library, directly for the CPU one. Their outputs
(.npy files) must be equal byte for byte, and what loom-exec prints (the
results' summaries, each loop's iterations per shard, each shard's
collectives per call) must be the same text: the ranks compute the thread
mesh's bits with the thread mesh's collectives. Prints one line per run and
PASS, or the first difference and exits 1.

usage: mpi_compare.py TOOLS_DIR "MPIRUN ARGS" PROGRAM [--entry E]
           [--input NAME=SPEC]... [--npy NAME=f32:LO:HI:SHAPE]...
           [--ranks 1,2,3,4] [--variants per-lane:global,masked:auto]
"""

import argparse
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..",
                                "Integration", "shard"))
from shard_compare import input_flags  # noqa: E402


def run(cmd, what):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        sys.exit("FAIL: %s: %s\n%s%s" % (what, " ".join(cmd), proc.stdout,
                                         proc.stderr))
    return proc.stdout


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tools")
    parser.add_argument("mpirun")
    parser.add_argument("program")
    parser.add_argument("--entry", default="main")
    parser.add_argument("--input", action="append", default=[])
    parser.add_argument("--npy", action="append", default=[])
    parser.add_argument("--ranks", default="1,2,3,4")
    parser.add_argument("--variants", default="per-lane:global,masked:auto")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="mpi-compare-")
    compile_tool = os.path.join(args.tools, "loom-compile")
    exec_tool = os.path.join(args.tools, "loom-exec")

    inputs = input_flags(args.input, args.npy, tmp)

    for ranks in args.ranks.split(","):
        for variant in args.variants.split(","):
            divergent, sync = variant.split(":")
            label = "ranks=%s divergent=%s loop-sync=%s" % (ranks, divergent,
                                                           sync)
            printed, files = {}, {}
            for backend in ("cpu", "mpi"):
                base = os.path.join(tmp, "%s-%s-%s-%s" % (backend, ranks,
                                                         divergent, sync))
                # -O1: the optimizer is not what is compared.
                run([compile_tool, args.program, "--entry", args.entry,
                     "--backend", backend, "--shards", ranks, "--divergent",
                     divergent, "--loop-sync", sync, "--counters", "-O1",
                     "--emit=so", "-o", base + ".so"], "compile " + label)
                cmd = [exec_tool, base + ".so"] + inputs + [
                    "--stats", "--output-dir", base]
                if backend == "mpi":
                    cmd = shlex.split(args.mpirun) + [ranks] + cmd
                printed[backend] = run(cmd, backend + " " + label)
                files[backend] = {}
                for name in sorted(os.listdir(base)):
                    with open(os.path.join(base, name), "rb") as f:
                        files[backend][name] = f.read()
            if not files["cpu"]:
                sys.exit("FAIL: %s: no results" % label)
            if files["cpu"] != files["mpi"]:
                differ = [n for n in files["cpu"]
                          if files["cpu"][n] != files["mpi"].get(n)]
                sys.exit("FAIL: %s: %s differ from the thread mesh's" %
                         (label, ", ".join(differ) or "the result files"))
            if printed["cpu"] != printed["mpi"]:
                sys.exit("FAIL: %s: loom-exec printed\n%s\non the thread "
                         "mesh, but\n%s\non MPI ranks" %
                         (label, printed["cpu"], printed["mpi"]))
            collectives = [l for l in printed["mpi"].splitlines()
                           if l.startswith("collectives")]
            print("%s: same bits, %s" % (label, collectives[0]))
    print("PASS")


if __name__ == "__main__":
    main()
