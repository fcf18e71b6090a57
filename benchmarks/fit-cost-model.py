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
#   gang     = G^L * (c * (ops + carries + 3) * ceil(B / W) + l * lane * B)
#              + o * ceil(B / Wg)
#   refill   = G^(L-1) * (c * (ops + carries + 3 + r) * ceil(B / W)
#              + l * lane * B)
#
# with c = c1 for a loop masked in one pass over the lanes (the remark says
# which form)
#
# to `loom-bench-divergent`'s measurements (BENCH_DIR/divergent.json) of the
# suite's *fit* half only, then reports how the fitted model does on the
# held-out half and on the seed's programs (BENCH_DIR/seed.json, when there).
# c is masked-op-cost, c1 one-pass-op-cost, D expected-divergence, l
# lane-op-cost, G gang-divergence, o gang-overhead, r refill-op-cost; W (simd-width), Wg
# (gang-width) and B (assumed-batch) stay as they are. Each loop's ops, lane-by-lane ops,
# carries and depth L come from loom-vmap's own remarks (loom-opt -loom-vmap
# with every loop forced per-lane, so that only outermost loops speak).
#
# The fit, in three steps, each the least squared error in log space over a
# log grid: (c, c1, D, l) against the measured masked / per-lane of each fit
# program at 1 and 2 shards (the sum over its outermost loops of each side;
# for each D and l, c and c1 are fitted apart, on the programs of each form);
# then (G, o) against gang / per-lane; then r against gang-refill / per-lane. Fitting the ratio, not just which
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
    r"lane, (\d+) carries, masked (in one pass|in sweeps)"
    r"(?:; gang \d+, gang with refill \d+ \(width (\d+)\))?")

# The pass options (Passes.td) that hold c, D, l, g, G, o and r.
OPTIONS = ("maskedOpCost", "expectedDivergence", "laneOpCost",
           "onePassOpCost", "gangDivergence", "gangOverhead", "refillOpCost")
STRATEGIES = ("masked", "per-lane", "gang", "gang-refill")
DEFAULT = r'(Option<"%s", "[a-z-]+", "double",\s*/\*default=\*/)"([^"]*)"'

GRID_C = [2 ** (k / 8) for k in range(-16, 81)]  # masked-op-cost 0.25..1024
GRID_D = [2 ** (k / 8) for k in range(0, 17)]  # expected-divergence 1..4
GRID_L = [2 ** (k / 4) for k in range(0, 25)]  # lane-op-cost 1..64
GRID_O = [0] + [2 ** (k / 2) for k in range(0, 41)]  # gang-overhead 1..2^20
GRID_R = [0] + [2 ** (k / 4) for k in range(0, 49)]  # refill-op-cost 1..4096


def features(loom_opt, path):
    """One (L, B, W, ops, lane, carries) per outermost divergent loop."""
    out = subprocess.run(
        [loom_opt, path,
         "-loom-vmap=masked-op-cost=1e30 one-pass-op-cost=1e30 "
         "gang-overhead=1e30",
         "-mlir-print-op-on-diagnostic=false", "-o", os.devnull],
        capture_output=True, text=True)
    if out.returncode:
        sys.exit("fit-cost-model.py: loom-opt failed on %s:\n%s" % (path,
                                                                   out.stderr))
    loops = []
    for m in REMARK.finditer(out.stderr):
        L, B, _, W, ops, lane, carries, form, Wg = m.groups()
        # No gang part: a batch that fits one gang, which is masked.
        Wg = Wg or B
        loops.append(tuple(int(x) for x in (L, B, W, ops, lane, carries, Wg)) +
                     (form == "in one pass",))
    return loops


def loop_costs(loop, p):
    """{strategy: the model's cost} of one outermost loop, for the constants
    p = (c, D, l, c1, G, o, r)."""
    L, B, W, ops, lane, carries, Wg, one_pass = loop
    c, d, l, c1, G, o, r = p
    if one_pass:
        c = c1
    work = ops + carries + 3
    simd = math.ceil(B / W)
    costs = {"masked": d ** L * (c * work * simd + l * lane * B),
             "per-lane": B * (ops + l * lane)}
    if B > Wg:
        costs["gang"] = (G ** L * (c * work * simd + l * lane * B) +
                         o * math.ceil(B / Wg))
        costs["gang-refill"] = G ** (L - 1) * (c * (work + r) * simd +
                                               l * lane * B)
    return costs


def choose(loops, p):
    """The strategy the model picks for every outermost loop of a program,
    or 'mixed'."""
    picks = set()
    for loop in loops:
        costs = loop_costs(loop, p)
        picks.add(min(costs, key=costs.get))
    return picks.pop() if len(picks) == 1 else "mixed"


def regret(row, pick):
    t = row["times"]
    fixed = [t[k] for k in STRATEGIES if t.get(k)]
    if len(fixed) < 2 or (pick != "mixed" and not t.get(pick)):
        return 0.0
    # A mixed choice is charged the slowest.
    got = max(fixed) if pick == "mixed" else t[pick]
    return math.log(got / min(fixed))


def predicted_ratio(loops, p, strategy):
    """The model's `strategy` / per-lane for a program's outermost loops (a
    loop that cannot gang counts as masked)."""
    num = per_lane = 0.0
    for loop in loops:
        costs = loop_costs(loop, p)
        num += costs.get(strategy, costs["masked"])
        per_lane += costs["per-lane"]
    return num / per_lane


def measured_ratio(row, strategy="masked"):
    t = row["times"]
    if t.get(strategy) and t.get("per-lane"):
        return t[strategy] / t["per-lane"]
    return None


def least_squares(rows, feats, strategy, candidates):
    """The point of `candidates` (tuples of all seven constants) with the
    least squared error in log space of the model's `strategy` / per-lane
    against the measured one."""
    pairs = [(feats[r["program"]], math.log(measured_ratio(r, strategy)))
             for r in rows if measured_ratio(r, strategy) and feats[r["program"]]]
    if not pairs:
        return None, 0.0
    best, win = None, None
    for p in candidates:
        err = sum((math.log(predicted_ratio(f, p, strategy)) - m) ** 2
                  for f, m in pairs)
        if best is None or err < best - 1e-12:
            best, win = err, p
    return win, math.sqrt(best / len(pairs))


def one_pass_rows(rows, feats, one_pass):
    """The rows whose every outermost loop is (or is not) masked in one
    pass."""
    return [r for r in rows if feats[r["program"]] and
            all(loop[-1] == one_pass for loop in feats[r["program"]])]


def fit(rows, feats, defaults):
    """The three steps; a step without measurements keeps its defaults."""
    c, d, l, c1, G, o, r = defaults
    sweeps, one_pass = (one_pass_rows(rows, feats, f) for f in (False, True))
    best = None
    for dd in GRID_D:
        for ll in GRID_L:
            # Each form's constant is fitted on its own programs.
            pc, ec = least_squares(sweeps, feats, "masked",
                                   ((x, dd, ll, c1, G, o, r) for x in GRID_C))
            p1, e1 = least_squares(one_pass, feats, "masked",
                                   ((c, dd, ll, x, G, o, r) for x in GRID_C))
            err = ec ** 2 * len(sweeps) + e1 ** 2 * len(one_pass)
            if best is None or err < best[0] - 1e-12:
                best = (err, (pc or (c,))[0], dd, ll, (p1 or (0, 0, 0, c1))[3])
    err, c, d, l, c1 = best
    rms = math.sqrt(err / max(1, len(sweeps) + len(one_pass)))
    q, _ = least_squares(rows, feats, "gang",
                         ((c, d, l, c1, G, o, r) for G in GRID_D
                          for o in GRID_O))
    if q:
        G, o = q[4:6]
    q, _ = least_squares(rows, feats, "gang-refill",
                         ((c, d, l, c1, G, o, r) for r in GRID_R))
    if q:
        r = q[6]
    return (c, d, l, c1, G, o, r), rms


def defaults():
    with open(PASSES_TD) as f:
        text = f.read()
    return tuple(float(re.search(DEFAULT % name, text).group(2))
                 for name in OPTIONS)


def apply(p):
    with open(PASSES_TD) as f:
        text = f.read()
    for name, value in zip(OPTIONS, p):
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
    p, rms = fit(fit_rows, feats, defaults())
    print("fitted on %d runs (the fit half at 1 and 2 shards): %s "
          "(rms error of log(masked / per-lane): %.2f, a factor %.2f)" % (
              len(fit_rows), " ".join(
                  "%s=%.4g" % (re.sub("([A-Z])", lambda m: "-" + m.group(1).lower(),
                                      name), v) for name, v in zip(OPTIONS, p)),
              rms, math.exp(rms)))
    print("%-16s %-8s %6s %9s %9s  %-8s %-8s %-12s %s" % (
        "program", "half", "shards", "ratio", "model", "fastest", "picks",
        "auto picked", "picks/fastest"))
    for label, rs in (("fit", fit_rows),
                      ("held-out", [r for r in rows if r["held_out"]]),
                      ("seed", seeds)):
        worst = {}
        for r in rs:
            pick = choose(feats[r["program"]], p)
            q = math.exp(regret(r, pick))
            worst[r["shards"]] = max(worst.get(r["shards"], 0), q)
            m = measured_ratio(r)
            print("%-16s %-8s %6d %8.2fx %8.2fx  %-8s %-8s %-12s %.2fx" % (
                r["program"], label, r["shards"], m or float("nan"),
                predicted_ratio(feats[r["program"]], p, "masked")
                if feats[r["program"]] else float("nan"), r["fastest"], pick,
                r["auto_choice"] or "-", q))
        print("  worst model/fastest, %s: %s" % (label, ", ".join(
            "%d shard%s %.2fx" % (s, "" if s == 1 else "s", w)
            for s, w in sorted(worst.items()))))
    if do_apply:
        apply(p)
        print("wrote the defaults into %s; rebuild and rerun the benchmark "
              "to measure auto with them" % os.path.relpath(PASSES_TD, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
