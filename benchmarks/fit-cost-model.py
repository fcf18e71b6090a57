#!/usr/bin/env python3
# ===- fit-cost-model.py - Fits loom-vmap's cost model to the suite -------===#
#
# Part of the Loom project.
#
# ===-----------------------------------------------------------------------===#
#
# Usage: fit-cost-model.py BENCH_DIR [--loom-opt PATH] [--apply]
#
# Fits the constants of loom-vmap's divergent-loop cost model (docs/vmap.md)
#
#   masked   = D^L * (c * (ops + carries + 3) * ceil(B / W) + l * lane * B)
#   per-lane = B * (ops + l * lane)
#
# to `loom-bench-divergent`'s measurements (BENCH_DIR/divergent.json) of the
# suite's *fit* half only, then reports how the fitted model does on the
# held-out half and on the seed's programs (BENCH_DIR/seed.json, when there).
# c is masked-op-cost, D expected-divergence, l lane-op-cost; W (simd-width)
# and B (assumed-batch) stay as they are. Each loop's ops, lane-by-lane ops,
# carries and depth L come from loom-vmap's own remarks (loom-opt -loom-vmap
# with every loop forced per-lane, so that only outermost loops speak).
#
# The fit: for every (c, D, l) on a log grid, the model's masked / per-lane
# for each fit program (the sum over its outermost loops of each side) is
# compared with the measured ratio at 1 and 2 shards, and the point with the
# least squared error in log space wins. Fitting the ratio, not just which
# side wins, uses how much faster the winner is: a boundary fitted to
# decisions alone lands wherever the fit half stops constraining it, and
# misjudges the first unseen program beyond it. The script then shows each
# program's measured and modelled ratio and what the fitted model picks, with
# its time over the fastest's. `--apply` writes the constants into the pass
# options' defaults in include/loom/Dialect/Loom/Transforms/Passes.td (the
# one place they live).
#
# Standard library only; rerun it after anything changes the timings (e.g. a
# faster masked lowering): `make bench`, then this script with --apply.
#
# ===-----------------------------------------------------------------------===#

import importlib.util
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PASSES_TD = os.path.join(ROOT, "include/loom/Dialect/Loom/Transforms/Passes.td")
SEED_FILES = {"mwe-b3000": "mwe/while_of_while.mlir",
              "ode-b300": "diffrax/ode.mlir", "sde-b300": "diffrax/sde.mlir"}

spec = importlib.util.spec_from_file_location("report",
                                              os.path.join(HERE, "report.py"))
report = importlib.util.module_from_spec(spec)
spec.loader.exec_module(report)

REMARK = re.compile(
    r"cost model: masked \d+ [<>=]+ per-lane \d+ \((\d+) divergent levels?, "
    r"(\d+) lanes( assumed)?, SIMD width (\d+)\); (\d+) ops, (\d+) lane by "
    r"lane, (\d+) carries")

# The pass options (Passes.td) that hold c, D and l, and their defaults.
OPTIONS = ("maskedOpCost", "expectedDivergence", "laneOpCost")
DEFAULT = r'(Option<"%s", "[a-z-]+", "double",\s*/\*default=\*/)"([^"]*)"'

GRID_C = [2 ** (k / 8) for k in range(-16, 81)]  # masked-op-cost 0.25..1024
GRID_D = [2 ** (k / 8) for k in range(0, 17)]  # expected-divergence 1..4
GRID_L = [2 ** (k / 4) for k in range(0, 25)]  # lane-op-cost 1..64


def features(loom_opt, path):
    """One (L, B, W, ops, lane, carries) per outermost divergent loop."""
    out = subprocess.run(
        [loom_opt, path, "-loom-vmap=masked-op-cost=1e30",
         "-mlir-print-op-on-diagnostic=false", "-o", os.devnull],
        capture_output=True, text=True)
    if out.returncode:
        sys.exit("fit-cost-model.py: loom-opt failed on %s:\n%s" % (path,
                                                                   out.stderr))
    loops = []
    for m in REMARK.finditer(out.stderr):
        L, B, _, W, ops, lane, carries = m.groups()
        loops.append(tuple(int(x) for x in (L, B, W, ops, lane, carries)))
    return loops


def choose(loops, c, d, l):
    """'masked', 'per-lane' or 'mixed' for a program's outermost loops."""
    picks = set()
    for L, B, W, ops, lane, carries in loops:
        masked = d ** L * (c * (ops + carries + 3) * math.ceil(B / W) +
                           l * lane * B)
        per_lane = B * (ops + l * lane)
        picks.add("masked" if masked <= per_lane else "per-lane")
    return picks.pop() if len(picks) == 1 else "mixed"


def regret(row, pick):
    t = row["times"]
    both = [t[k] for k in ("masked", "per-lane") if t.get(k)]
    if len(both) < 2:
        return 0.0
    # A mixed choice is charged the slower of the two.
    got = max(both) if pick == "mixed" else t[pick]
    return math.log(got / min(both))


def predicted_ratio(loops, c, d, l):
    """The model's masked / per-lane for a program's outermost loops."""
    masked = per_lane = 0.0
    for L, B, W, ops, lane, carries in loops:
        masked += d ** L * (c * (ops + carries + 3) * math.ceil(B / W) +
                            l * lane * B)
        per_lane += B * (ops + l * lane)
    return masked / per_lane


def measured_ratio(row):
    t = row["times"]
    if t.get("masked") and t.get("per-lane"):
        return t["masked"] / t["per-lane"]
    return None


def fit(rows, feats):
    """Least squares in log space of the model's masked / per-lane against
    the measured one, over the grid."""
    pairs = [(feats[r["program"]], math.log(measured_ratio(r)))
             for r in rows if measured_ratio(r) and feats[r["program"]]]
    best, win = None, None
    for c in GRID_C:
        for d in GRID_D:
            for l in GRID_L:
                err = sum((math.log(predicted_ratio(f, c, d, l)) - m) ** 2
                          for f, m in pairs)
                if best is None or err < best - 1e-12:
                    best, win = err, (c, d, l)
    return win, math.sqrt(best / max(1, len(pairs)))


def apply(c, d, l):
    with open(PASSES_TD) as f:
        text = f.read()
    for name, value in zip(OPTIONS, (c, d, l)):
        text = re.sub(DEFAULT % name, r'\g<1>"%.4g"' % value, text)
    with open(PASSES_TD, "w") as f:
        f.write(text)


def main(argv):
    args = argv[1:]
    loom_opt = os.path.join(ROOT, "build/bin/loom-opt")
    if "--loom-opt" in args:
        i = args.index("--loom-opt")
        loom_opt = args[i + 1]
        del args[i:i + 2]
    do_apply = "--apply" in args
    args = [a for a in args if a != "--apply"]
    if len(args) != 1:
        sys.exit("usage: fit-cost-model.py BENCH_DIR [--loom-opt PATH] "
                 "[--apply]")
    rows, seeds, _ = report.divergent_table(args[0])
    if not rows:
        sys.exit("fit-cost-model.py: no divergent.json in %s" % args[0])
    feats = {r["program"]: features(
        loom_opt, os.path.join(HERE, "divergent", r["program"] + ".mlir"))
        for r in rows}
    for wl, path in SEED_FILES.items():
        feats[wl] = features(loom_opt,
                             os.path.join(ROOT, "python-free-examples", path))
    fit_rows = [r for r in rows if not r["held_out"]]
    (c, d, l), rms = fit(fit_rows, feats)
    print("fitted on %d runs (the fit half at 1 and 2 shards): "
          "masked-op-cost=%.4g expected-divergence=%.4g lane-op-cost=%.4g "
          "(rms error of log(masked / per-lane): %.2f, a factor %.2f)" % (
              len(fit_rows), c, d, l, rms, math.exp(rms)))
    print("%-16s %-8s %6s %9s %9s  %-8s %-8s %-12s %s" % (
        "program", "half", "shards", "ratio", "model", "fastest", "picks",
        "auto picked", "picks/fastest"))
    for label, rs in (("fit", fit_rows),
                      ("held-out", [r for r in rows if r["held_out"]]),
                      ("seed", seeds)):
        worst = {}
        for r in rs:
            pick = choose(feats[r["program"]], c, d, l)
            q = math.exp(regret(r, pick))
            worst[r["shards"]] = max(worst.get(r["shards"], 0), q)
            m = measured_ratio(r)
            print("%-16s %-8s %6d %8.2fx %8.2fx  %-8s %-8s %-12s %.2fx" % (
                r["program"], label, r["shards"], m or float("nan"),
                predicted_ratio(feats[r["program"]], c, d, l)
                if feats[r["program"]] else float("nan"), r["fastest"], pick,
                r["auto_choice"] or "-", q))
        print("  worst model/fastest, %s: %s" % (label, ", ".join(
            "%d shard%s %.2fx" % (s, "" if s == 1 else "s", w)
            for s, w in sorted(worst.items()))))
    if do_apply:
        apply(c, d, l)
        print("wrote the defaults into %s; rebuild and rerun the benchmark "
              "to measure auto with them" % os.path.relpath(PASSES_TD, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
