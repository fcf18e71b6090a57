#!/usr/bin/env python3
# ===- fit-cost-model.py - Fits loom-vmap's cost model to the suite -------===#
#
# Part of the Loom project.
#
# ===-----------------------------------------------------------------------===#
#
# Usage: fit-cost-model.py BENCH_DIR [--loom-opt PATH] [--apply]
#        fit-cost-model.py --features PROGRAM.mlir [--loom-opt PATH]
#
# (--features prints what the script reads from loom-vmap's remarks for each
# outermost divergent loop of PROGRAM, test/Benchmarks/fit-features.mlir
# checks it.)
#
# Fits the constants of loom-vmap's divergent-loop cost model (docs/vmap.md)
#
#   per-lane = B * max(ops + l * (lane + libm + tables), k * chain)
#   masked   = D(B)^L * (c_m * V + U)
#   gang     = D(Wg)^L * (c_g * V + U) + o * ceil(B / Wg)
#   refill   = D(Wg)^(L-1) * (c_g * (V + r * carries * ceil(B / W)) + U)
#   V        = (ops + s * libm + carries + 3) * ceil(B / W)
#   U        = (u * lane + t * tables) * B in one pass,
#              u * (lane + tables) * B in sweeps
#   D(n)     = 1 + d * log2(n)
#
# where c_m is c (masked-op-cost) for a loop masked in sweeps and c1
# (one-pass-op-cost) for one masked in one pass over the lanes (the remark
# says which form), c_g likewise g (gang-op-cost) or g1
# (gang-one-pass-op-cost); d is divergence-per-doubling, l lane-op-cost, u
# batched-lane-op-cost, k carried-latency-cost, o gang-overhead, r
# refill-op-cost. W (simd-width), Wg (gang-width), B (assumed-batch), s
# (vector-libm-ops: an f32 sin or log1p, which the CPU lowering computes in vector
# arithmetic in the batched forms and calls libm for per lane) and t
# (table-read-cost: a read of a constant table at a lane's index, a load per
# lane in one pass) stay as they are. Each loop's ops, lane-by-lane ops,
# table reads, carries, the latency of its
# carried chain in cycles, depth L and form come from loom-vmap's own
# remarks (loom-opt -loom-vmap with every loop forced per-lane, so that only
# outermost loops speak).
#
# The fit uses `loom-bench-divergent`'s measurements (BENCH_DIR/divergent.json)
# of the suite's *fit* half only, then reports how the fitted model does on
# the held-out half and on the seed's programs (BENCH_DIR/seed.json, when
# there). It is least squares in log space of the model's masked / per-lane,
# gang / per-lane and gang-refill / per-lane against the measured ones, for
# every fit program at 1 and 2 shards (the sum over a program's outermost
# loops of each side), taken one constant at a time over a log grid, in
# rounds until no constant moves (at most 8), from the current defaults and
# from all ones, keeping the better. Fitting the ratios, not just
# which side wins, uses how much faster the winner is: a boundary fitted to
# decisions alone lands wherever the fit half stops constraining it, and
# misjudges the first unseen program beyond it. The script then shows each
# program's measured and modelled ratios and what the fitted model picks,
# with its time over the fastest's. `--apply` writes the constants into the
# pass options' defaults in include/loom/Dialect/Loom/Transforms/Passes.td
# (the one place they live).
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
    r"(\d+) lanes( assumed)?, SIMD width (\d+), divergence [\d.]+ a level\); "
    r"(\d+) ops, (\d+) lane by lane(?:, (\d+) libm calls in vector arithmetic)?"
    r"(?:, (\d+) table reads? at a lane's index)?, "
    r"(\d+) carries, a (\d+)-cycle carried "
    r"chain, masked "
    r"(in one pass|in sweeps)"
    r"(?:; gang \d+, gang with refill \d+ \(width (\d+))?")

# The pass options (Passes.td) that hold c, c1, g, g1, d, l, u, k, o and r,
# in the order of loop_costs' p.
OPTIONS = ("maskedOpCost", "onePassOpCost", "gangOpCost", "gangOnePassOpCost",
           "divergencePerDoubling", "laneOpCost", "batchedLaneOpCost",
           "carriedLatencyCost", "gangOverhead", "refillOpCost")
STRATEGIES = ("masked", "per-lane", "gang", "gang-refill")
DEFAULT = r'(Option<"%s", "[a-z-]+", "double",\s*/\*default=\*/)"([^"]*)"'

GRID_C = [2 ** (k / 8) for k in range(-24, 81)]  # op costs 0.125..1024
GRID_D = [0] + [2 ** (k / 8) for k in range(-64, 9)]  # d 0, 0.004..2
# Lane-op costs 1..128: a lane-by-lane op costs at least the one scalar op
# it is in the per-lane form.
GRID_L = [2 ** (k / 8) for k in range(0, 57)]
GRID_O = [0] + [2 ** (k / 2) for k in range(0, 41)]  # gang-overhead 1..2^20
GRID_R = [0] + [2 ** (k / 4) for k in range(-8, 49)]  # refill-op-cost 0.25..4096
GRID_K = [0] + [2 ** (k / 8) for k in range(-40, 25)]  # latency 0, 0.03..8
GRIDS = (GRID_C, GRID_C, GRID_C, GRID_C, GRID_D, GRID_L, GRID_L, GRID_K,
         GRID_O, GRID_R)


def vector_libm_ops():
    """vector-libm-ops (Passes.td): what loom-vmap charges the batched forms
    for an f32 sin or log1p, which the CPU lowering computes in vector
    arithmetic; a
    fixed constant, not fitted."""
    with open(PASSES_TD) as f:
        return float(re.search(DEFAULT % "vectorLibmOps", f.read()).group(2))


VECTOR_LIBM_OPS = vector_libm_ops()


def table_read_cost():
    """table-read-cost (Passes.td): what loom-vmap charges a lane of a pass
    for a read of a constant table at its index; a fixed constant, not
    fitted."""
    with open(PASSES_TD) as f:
        return float(re.search(DEFAULT % "tableReadCost", f.read()).group(2))


TABLE_READ_COST = table_read_cost()


def features(loom_opt, path):
    """One (L, B, W, ops, lane, libm, tables, carries, chain, Wg, one_pass)
    per outermost divergent loop."""
    out = subprocess.run(
        [loom_opt, path,
         "-loom-vmap=masked-op-cost=1e30 one-pass-op-cost=1e30 "
         "gang-op-cost=1e30 gang-one-pass-op-cost=1e30 gang-overhead=1e30",
         "-mlir-print-op-on-diagnostic=false", "-o", os.devnull],
        capture_output=True, text=True)
    if out.returncode:
        sys.exit("fit-cost-model.py: loom-opt failed on %s:\n%s" % (path,
                                                                   out.stderr))
    loops = []
    for m in REMARK.finditer(out.stderr):
        L, B, _, W, ops, lane, libm, tables, carries, chain, form, Wg = (
            m.groups())
        # No gang part: a batch that fits one gang, which is masked.
        Wg = Wg or B
        loops.append(tuple(int(x) for x in (L, B, W, ops, lane, libm or 0,
                                             tables or 0, carries, chain,
                                             Wg)) +
                     (form == "in one pass",))
    return loops


def loop_costs(loop, p):
    """{strategy: the model's cost} of one outermost loop, for the constants
    p = (c, c1, g, g1, d, l, u, k, o, r)."""
    L, B, W, ops, lane, libm, tables, carries, chain, Wg, one_pass = loop
    c, c1, g, g1, d, l, u, k, o, r = p
    cm, cg = (c1, g1) if one_pass else (c, g)
    vector_ops = (ops + VECTOR_LIBM_OPS * libm + carries + 3) * math.ceil(B / W)
    if one_pass:
        lanes = (u * lane + TABLE_READ_COST * tables) * B
    else:
        lanes = u * (lane + tables) * B

    def D(n):
        return 1 + d * math.log2(n)

    costs = {"masked": D(B) ** L * (cm * vector_ops + lanes),
             "per-lane": B * max(ops + l * (lane + libm + tables), k * chain)}
    if B > Wg:
        costs["gang"] = (D(Wg) ** L * (cg * vector_ops + lanes) +
                         o * math.ceil(B / Wg))
        costs["gang-refill"] = D(Wg) ** (L - 1) * (
            cg * (vector_ops + r * carries * math.ceil(B / W)) + lanes)
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


def squared_error(rows, feats, p):
    """The squared error in log space of the model's masked, gang and
    gang-refill / per-lane against the measured ones, and how many terms."""
    err, n = 0.0, 0
    for r in rows:
        f = feats[r["program"]]
        for strategy in ("masked", "gang", "gang-refill"):
            m = measured_ratio(r, strategy)
            if f and m:
                err += (math.log(predicted_ratio(f, p, strategy)) -
                        math.log(m)) ** 2
                n += 1
    return err, n


def descend(rows, feats, start):
    """Least squares one constant at a time over its grid, in rounds until
    no constant moves (at most 8)."""
    p = list(start)
    for _ in range(8):
        moved = False
        for i, grid in enumerate(GRIDS):
            best = squared_error(rows, feats, p)[0], p[i]
            for v in grid:
                err = squared_error(rows, feats, p[:i] + [v] + p[i + 1:])[0]
                if err < best[0] - 1e-12:
                    best = err, v
            moved |= best[1] != p[i]
            p[i] = best[1]
        if not moved:
            break
    return p


def fit(rows, feats, defaults):
    """The better of two descents, from the current defaults and from every
    constant at 1 (so that a refit does not only polish the last one);
    returns the constants and the rms error of the log ratios."""
    fits = [descend(rows, feats, start)
            for start in (defaults, [1.0] * len(defaults))]
    p = min(fits, key=lambda q: squared_error(rows, feats, q)[0])
    err, n = squared_error(rows, feats, p)
    return tuple(p), math.sqrt(err / max(1, n))


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
    if args[:1] == ["--features"] and len(args) == 2:
        loops = features(loom_opt, args[1])
        for loop in loops:
            print("L=%d B=%d W=%d ops=%d lane=%d libm=%d tables=%d carries=%d "
                  "chain=%d Wg=%d %s"
                  % (loop[:-1] + ("one-pass" if loop[-1] else "sweeps",)))
        return 0 if loops else "fit-cost-model.py: no cost-model remark in " + args[1]
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
          "(rms error of log(strategy / per-lane), masked, gang and "
          "gang-refill: %.2f, a factor %.2f)" % (
              len(fit_rows), " ".join(
                  "%s=%.4g" % (re.sub("([A-Z])", lambda m: "-" + m.group(1).lower(),
                                      name), v) for name, v in zip(OPTIONS, p)),
              rms, math.exp(rms)))
    print("%-16s %-8s %6s %-17s %-17s %-11s %-11s %s" % (
        "program", "half", "shards", "measured m/g/r", "model m/g/r",
        "fastest", "picks", "picks/fastest"))
    ratios = ("masked", "gang", "gang-refill")

    def fmt(xs):
        return "/".join("-" if x is None else "%.2f" % x for x in xs)

    for label, rs in (("fit", fit_rows),
                      ("held-out", [r for r in rows if r["held_out"]]),
                      ("seed", seeds)):
        worst = {}
        for r in rs:
            f = feats[r["program"]]
            pick = choose(f, p) if f else "-"
            q = math.exp(regret(r, pick)) if f else float("nan")
            worst[r["shards"]] = max(worst.get(r["shards"], 0), q)
            print("%-16s %-8s %6d %-17s %-17s %-11s %-11s %.2fx" % (
                r["program"], label, r["shards"],
                fmt(measured_ratio(r, k) for k in ratios),
                fmt(predicted_ratio(f, p, k) if f else None for k in ratios),
                r["fastest"], pick, q))
        err, n = squared_error(rs, feats, p)
        print("  worst model/fastest, %s: %s; rms error %.2f (a factor %.2f)"
              % (label, ", ".join(
                  "%d shard%s %.2fx" % (s, "" if s == 1 else "s", w)
                  for s, w in sorted(worst.items())),
                 math.sqrt(err / max(1, n)), math.exp(math.sqrt(err / max(1, n)))))
    if do_apply:
        apply(p)
        print("wrote the defaults into %s; rebuild and rerun the benchmark "
              "to measure auto with them" % os.path.relpath(PASSES_TD, ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
