#!/usr/bin/env python3
"""The MPI backend's benchmarks, rendered into docs/benchmarks.md.

Every library is compiled once with loom-compile, then run by loom-exec
(`--repeat R --time`, the median call): under `mpirun -np N` for the MPI
backend, directly for the thread mesh with the same shard count. Measured
side by side in one run:

  1. the seed's slowdown over MPI: global sync (`--divergent masked
     --loop-sync global`, what jax.jit's lowering does) against auto, at 2
     and 4 ranks, on the MWE at batch 3000 and the SDE at batch 300;
  2. the cost of one collective round, per backend: a loop whose only work
     is its predicate all-reduce (rounds.mlir), time per call over
     collectives per call;
  3. scaling from 1 to 2 ranks (auto).

usage: mpi_bench.py BUILD_DIR [--markdown docs/benchmarks.md] [--repeat 5]
More ranks than cores are oversubscribed (and then measure the scheduler).
"""

import argparse
import datetime
import os
import re
import shlex
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
EXAMPLES = os.path.join(ROOT, "python-free-examples")
HEADING = "## MPI backend"

PROGRAMS = {
    "MWE b3000": (os.path.join(EXAMPLES, "mwe", "while_of_while.mlir"),
                  ["inits=fill:0.1:3000x1xf32", "keys=jax-split:0:3000"]),
    "SDE b300": (os.path.join(EXAMPLES, "diffrax", "sde.mlir"),
                 ["inits=fill:0.1:300x1xf32", "keys=jax-split:0:300",
                  "t1=fill:1.0:f32", "max_steps=fill:10000:i32"]),
}
MODES = {
    "global": ["--divergent", "masked", "--loop-sync", "global"],
    "auto": [],
}


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if proc.returncode != 0:
        sys.exit("mpi_bench: %s failed\n%s%s" % (" ".join(cmd), proc.stdout,
                                                  proc.stderr))
    return proc.stdout


class Bench:
    def __init__(self, build, repeat, mpirun):
        self.tools = os.path.join(build, "bin")
        self.repeat = repeat
        self.mpirun = shlex.split(mpirun)
        self.tmp = tempfile.mkdtemp(prefix="mpi-bench-")
        self.built = {}

    def library(self, program, backend, shards, flags):
        key = (program, backend, shards, tuple(flags))
        if key not in self.built:
            path = os.path.join(self.tmp, "lib%d.so" % len(self.built))
            run([os.path.join(self.tools, "loom-compile"), program,
                 "--backend", backend, "--shards", str(shards), "--counters",
                 "--emit=so", "-o", path] + flags)
            self.built[key] = path
        return self.built[key]

    def call(self, program, inputs, backend, shards, flags):
        """Median call time in ms, and collectives per shard per call."""
        lib = self.library(program, backend, shards, flags)
        cmd = [os.path.join(self.tools, "loom-exec"), lib, "--time",
               "--stats", "--repeat", str(self.repeat)]
        for spec in inputs:
            cmd += ["--input", spec]
        if backend == "mpi":
            cmd = self.mpirun + [str(shards)] + cmd
        out = run(cmd)
        median = float(re.search(r"call: median ([0-9.]+) ms", out).group(1))
        coll = re.search(r"collectives per shard per call: \[([0-9, ]*)\]",
                         out).group(1)
        per_shard = [int(c) for c in coll.split(",")] if coll else [0]
        return median, max(per_shard)


def render(bench):
    lines = [HEADING, "",
             "From `make bench-mpi` (benchmarks/mpi/mpi_bench.py): each "
             "library compiled once with `loom-compile`, run with "
             "`loom-exec --repeat %d` (median call), under `mpirun -np N` "
             "for MPI and on the thread mesh for CPU, side by side in one "
             "run. This machine has %d cores: 4 ranks are oversubscribed."
             % (bench.repeat, os.cpu_count()), "",
             "This section's run: %s, load average %s." % (
                 datetime.datetime.now(datetime.timezone.utc).isoformat(
                     timespec="seconds"),
                 ", ".join("%.1f" % x for x in os.getloadavg())), ""]

    lines += ["### The seed's slowdown over MPI", "",
              "| program | ranks | global sync (ms) | auto (ms) | global / auto |"
              " collectives per call (global) |",
              "|---|---|---|---|---|---|"]
    auto_times = {}
    for name, (program, inputs) in PROGRAMS.items():
        for ranks in (2, 4):
            g, gc = bench.call(program, inputs, "mpi", ranks, MODES["global"])
            a, _ = bench.call(program, inputs, "mpi", ranks, MODES["auto"])
            auto_times[(name, ranks)] = a
            lines.append("| %s | %d | %.2f | %.2f | %.1fx | %d |" %
                         (name, ranks, g, a, g / a, gc))

    rounds = os.path.join(HERE, "rounds.mlir")
    lines += ["", "### One collective round", "",
              "rounds.mlir: 64 lanes count to 2000 in a masked, globally "
              "synchronised loop, so a call is 2000 predicate all-reduces "
              "and little else; the round's cost is the call's time over "
              "its collectives (the loop's own work on a few lanes "
              "included).", "",
              "| backend | shards | collectives per call | µs per round |",
              "|---|---|---|---|"]
    for backend, shards in (("cpu", 2), ("mpi", 2), ("cpu", 4), ("mpi", 4)):
        t, c = bench.call(rounds, ["ns=fill:2000:64xi32"], backend, shards,
                          MODES["global"])
        lines.append("| %s | %d | %d | %.2f |" % (
            "thread mesh" if backend == "cpu" else "MPI", shards, c,
            1e3 * t / max(c, 1)))

    lines += ["", "### Scaling from 1 to 2 ranks (auto)", "",
              "| program | 1 rank (ms) | 2 ranks (ms) | speed-up | thread mesh, 2 shards (ms) |",
              "|---|---|---|---|---|"]
    for name, (program, inputs) in PROGRAMS.items():
        one, _ = bench.call(program, inputs, "mpi", 1, MODES["auto"])
        two = auto_times[(name, 2)]
        cpu, _ = bench.call(program, inputs, "cpu", 2, MODES["auto"])
        lines.append("| %s | %.2f | %.2f | %.2fx | %.2f |" %
                     (name, one, two, one / two, cpu))
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("build")
    parser.add_argument("--markdown")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--mpirun", default="mpirun --oversubscribe -np")
    args = parser.parse_args()
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    os.environ.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    section = render(Bench(args.build, args.repeat, args.mpirun))
    print(section)
    if args.markdown:
        # The page's other sections are report.py's: only this one changes.
        with open(args.markdown) as f:
            chunks = re.split(r"(?m)^(?=## )", f.read())
        for i, chunk in enumerate(chunks):
            if chunk.splitlines()[0] == HEADING:
                chunks[i] = section + ("\n" if i + 1 < len(chunks) else "")
                break
        else:
            chunks[-1] = chunks[-1].rstrip("\n") + "\n\n"
            chunks.append(section)
        with open(args.markdown, "w") as f:
            f.write("".join(chunks))

if __name__ == "__main__":
    main()
