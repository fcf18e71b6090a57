#!/usr/bin/env python3
# ===- report.py - Renders docs/benchmarks.md from `make bench`'s JSON -----===#
#
# Part of the Loom project.
#
# ===-----------------------------------------------------------------------===#
#
# Usage: report.py [--section aot|divergent|masked] BENCH_DIR DOC IMG_DIR
#
# Reads BENCH_DIR/{jit,aot,mesh,seed,divergent,masked,memory}.json (Google Benchmark's JSON,
# every repetition, and loom-bench-seed's --peak-memory-out), writes the
# Markdown page DOC and SVG plots into IMG_DIR with gnuplot. With
# `--section aot` it reads only aot.json and replaces that one section (and
# the page's fixed introduction) in the existing DOC, keeping the other
# sections' numbers from the run that rendered them; each section names its
# run. Python's standard library
# only: the page is rendered on machines without numpy. Every number on the
# page comes from those files; nothing is typed in here except the seed's own
# published ratios, which are labelled as such.
#
# ===-----------------------------------------------------------------------===#

import datetime
import json
import os
import platform
import re
import statistics
import subprocess
import sys

from masked_report import MASKED_HEADING, masked_section

# The seed's own slowdowns (global over per-shard), from its report: CPU
# figures, and the one GPU figure, which is kept apart from them.
SEED_CPU = {"mwe": 20.0, "sde": 38.0, "ode": 53.0}
SEED_GPU = ("sde", 240.0, "4xA100")
NOISY = 1.2  # max/min over the repetitions above this marks a run noisy


def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def plain_name(name):
    """The name without the "/repeats:N" and "/real_time" parts Google
    Benchmark appends for Repetitions() and UseRealTime()."""
    return re.sub(r"/(repeats:\d+|real_time)(?=/|$)", "", name)


def runs(doc):
    """name -> {'times': [seconds...], 'counters': {...}, 'error': str}."""
    out = {}
    if not doc:
        return out
    benchmarks = doc.get("benchmarks", [])
    iterations = any(b.get("run_type") != "aggregate" for b in benchmarks)
    for b in benchmarks:
        # A binary that reports aggregates only (loom-bench-mesh) leaves its
        # medians: one value each, so no min-max.
        if b.get("run_type") == "aggregate" and (
                iterations or b.get("aggregate_name") != "median"):
            continue
        name = b.get("run_name", b["name"])
        name = plain_name(name)
        r = out.setdefault(name, {"times": [], "counters": {}, "error": None})
        if b.get("error_occurred"):
            r["error"] = b.get("error_message", "error")
            continue
        scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
        r["times"].append(b["real_time"] * scale)
        for k, v in b.items():
            if isinstance(v, (int, float)) and k not in (
                "real_time", "cpu_time", "iterations", "repetitions",
                "repetition_index", "threads", "family_index",
                "per_family_instance_index"):
                r["counters"].setdefault(k, []).append(v)
    return out


def repetitions(doc, default):
    """The repetitions the binary ran (Google Benchmark records them with
    each run), so that the text says what the run did."""
    counts = [b.get("repetitions", 0) for b in (doc or {}).get("benchmarks", [])
              if b.get("run_type") == "iteration"]
    return max(counts) if counts else default


def med(xs):
    return statistics.median(xs) if xs else None


def fmt_time(s):
    if s is None:
        return "n/a"
    if s >= 1:
        return "%.2f s" % s
    if s >= 1e-3:
        return "%.3g ms" % (s * 1e3)
    return "%.3g us" % (s * 1e6)


def fmt_ratio(x):
    return "n/a" if x is None else ("%.2fx" % x if x < 100 else "%.0fx" % x)


def counter(r, key):
    return med(r["counters"].get(key, [])) if r else None


def noisy(r):
    t = r["times"] if r else []
    return bool(t) and min(t) > 0 and max(t) / min(t) > NOISY


def head_commit():
    try:
        repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=repo,
                              capture_output=True, text=True).stdout.strip() \
            or "unknown"
    except OSError:
        return "unknown"


def machine(seed_doc):
    model = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        cxx = subprocess.run(["c++", "--version"], capture_output=True,
                             text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        cxx = "unknown"
    ctx = (seed_doc or {}).get("context", {})
    # `make bench` records the commit it measured (--benchmark_context); a
    # run without it is named by the tree it is rendered from, and says so.
    commit = ctx.get("commit")
    if commit:
        if commit.endswith("-dirty"):
            commit = commit[:-len("-dirty")] + \
                " (with uncommitted changes in the tree)"
    else:
        commit = head_commit() + " (at rendering; the run did not record one)"
    return {
        "nproc": os.cpu_count(),
        "model": model,
        "cxx": cxx,
        "date": ctx.get("date", datetime.datetime.now().isoformat()),
        "load": ctx.get("load_avg"),
        "commit": commit,
        "os": platform.platform(),
        "library_debug": ctx.get("library_build_type") == "debug",
    }


def gnuplot(script):
    try:
        subprocess.run(["gnuplot"], input=script, text=True, check=True)
        return True
    except (OSError, subprocess.CalledProcessError) as e:
        print("report.py: gnuplot failed: %s" % e, file=sys.stderr)
        return False


WORKLOADS = [
    ("mwe-b30", "the seed's MWE (`mwe/while_of_while.mlir` @main), batch 30, inits 0.1, keys split(PRNGKey(0), 30)"),
    ("mwe-b3000", "the same at batch 3000"),
    ("ode-b300", "the diffrax ODE (`diffrax/ode.mlir` @main), 300 identical lanes y0 = 0.1, t1 = 0.1, dt0 = 0.01, max_steps 100 (the seed's)"),
    ("ode-b300-div", "the same with y0 = 0.1 + 0.01 i per lane, so step counts differ"),
    ("sde-b300", "the diffrax SDE (`diffrax/sde.mlir` @main), y0 = 0.1, keys split(PRNGKey(0), 300), t1 = 1.0, dt0 = 0.05, max_steps 10000"),
]
VARIANT_ORDER = ["baseline", "sync:auto/div:auto", "sync:global/div:auto",
                 "sync:local/div:auto", "sync:auto/div:masked",
                 "sync:global/div:masked", "sync:local/div:masked",
                 "sync:auto/div:per-lane", "sync:auto/div:gang",
                 "sync:auto/div:gang-refill", "pmap"]


def seed_tables(seed, lines):
    for wl, what in WORKLOADS:
        lines.append("### `%s`\n" % wl)
        lines.append(what[0].upper() + what[1:] + ".\n")
        lines.append("| shards | variant | median | min–max | vs baseline | vs auto | lane util | collectives/call | compile |")
        lines.append("|---|---|---|---|---|---|---|---|---|")
        for shards in (1, 2, 10):
            prefix = "%s/s%d/" % (wl, shards)
            base = seed.get(prefix + "baseline")
            auto = seed.get(prefix + "sync:auto/div:auto")
            tb, ta = med(base["times"]) if base else None, med(auto["times"]) if auto else None
            for v in VARIANT_ORDER:
                r = seed.get(prefix + v)
                if r is None:
                    continue
                if r["error"] and not r["times"]:
                    lines.append("| %d | `%s` | **failed: %s** | | | | | | |" % (shards, v, r["error"]))
                    continue
                t = med(r["times"])
                mm = "%s–%s" % (fmt_time(min(r["times"])), fmt_time(max(r["times"])))
                if noisy(r):
                    mm += " (noisy)"
                util = counter(r, "util")
                coll = counter(r, "collectives")
                comp = counter(r, "compile_ms")
                label = {"baseline": "C++ baseline, %d std::thread%s" % (shards, "s" if shards > 1 else ""),
                         "pmap": "explicit per-shard: 1-shard auto on %d std::threads" % shards}.get(v, "`%s`" % v)
                lines.append("| %d | %s | %s | %s | %s | %s | %s | %s | %s |" % (
                    shards, label, fmt_time(t), mm,
                    fmt_ratio(t / tb if tb and t else None),
                    fmt_ratio(t / ta if ta and t else None),
                    "" if util is None else "%.2f" % util,
                    "" if coll is None else "%.0f" % coll,
                    "" if comp is None else "%.0f ms" % comp))
                mis = counter(r, "baseline_mismatch")
                if mis:
                    lines.append("| | (baseline `ys` differ from Loom's on %d lanes) | | | | | | | |" % mis)
        lines.append("")


def ratio(seed, wl, shards, num, den):
    a = seed.get("%s/s%d/%s" % (wl, shards, num))
    b = seed.get("%s/s%d/%s" % (wl, shards, den))
    ta, tb = (med(a["times"]) if a else None), (med(b["times"]) if b else None)
    return ta / tb if ta and tb else None


def plot_global(seed, img_dir, lines):
    """Loom's global/auto per workload next to the seed's CPU ratios."""
    data = os.path.join(img_dir, "global-over-auto.dat")
    rows = []
    for wl, _ in WORKLOADS:
        g2 = ratio(seed, wl, 2, "sync:global/div:masked", "sync:auto/div:auto")
        g10 = ratio(seed, wl, 10, "sync:global/div:masked", "sync:auto/div:auto")
        s = SEED_CPU.get(wl.split("-")[0]) if wl != "ode-b300-div" else None
        rows.append((wl, g2, g10, s))
    with open(data, "w") as f:
        for wl, g2, g10, s in rows:
            f.write('"%s" %s %s %s\n' % (wl, g2 or "NaN", g10 or "NaN", s or "NaN"))
    svg = os.path.join(img_dir, "global-over-auto.svg")
    ok = gnuplot("""
set terminal svg size 900,480 font 'sans,12' background '#ffffff'
set output '%s'
set title "global/auto time ratio per workload (masked + loop-sync=global over auto)"
set xtics nomirror rotate by -15
set ytics nomirror
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set logscale y
set yrange [0.1:1000]
set ylabel 'ratio (log scale)'
set key top right
set grid ytics
set bmargin 5
set label 1 "Seed's GPU figure, a different machine and not comparable with these CPU ratios: SDE 240x on 4xA100 (not plotted)" at screen 0.02, screen 0.04 font 'sans,10'
plot '%s' using 2:xtic(1) title 'Loom, 2 shards', \\
     '' using 3 title 'Loom, 10 shards', \\
     '' using 4 title "seed's CPU figure (JAX)"
""" % (svg, data))
    os.remove(data)
    lines.append("| workload | Loom 2 shards | Loom 10 shards | seed, CPU |")
    lines.append("|---|---|---|---|")
    for wl, g2, g10, s in rows:
        lines.append("| `%s` | %s | %s | %s |" % (wl, fmt_ratio(g2), fmt_ratio(g10),
                                                  fmt_ratio(s) if s else "—"))
    lines.append("")
    lines.append("The seed's GPU figure (SDE %.0fx on %s) is a different machine "
                 "and is not mixed with the CPU ratios." % (SEED_GPU[1], SEED_GPU[2]))
    lines.append("")
    if ok:
        lines.append("![global/auto per workload](img/global-over-auto.svg)\n")


AOT_HEADING = "## Ahead of time (`loom-bench-aot`)"


def preamble():
    return [
        "# Benchmarks\n",
        "<!-- Generated by benchmarks/report.py from `make bench`'s JSON; "
        "edit the script, not this page. -->\n",
        "`make bench` installs gnuplot (`scripts/install-bench-deps.sh`), "
        "builds and runs `loom-bench-jit`, `loom-bench-aot`, `loom-bench-mesh`, "
        "`loom-bench-seed`, `loom-bench-divergent` and `loom-bench-masked` "
        "(Google Benchmark; the "
        "console shows progress), "
        "writes every repetition as JSON into `build/bench/`, and renders "
        "this page and `docs/img/*.svg` with `benchmarks/report.py`. It "
        "takes a few minutes on 2 cores. `report.py --section aot` re-renders "
        "only the ahead-of-time section from `aot.json`, and `--section "
        "divergent` only the divergent suite's from `divergent.json` (`--section "
        "masked`: `masked.json`); the "
        "other sections then keep the run named under \"Machine and run\".\n",
    ]


def fmt_quotient(x, inverse=True):
    """A ratio that may be far below 1 (a load against a compile), then
    also as one over its inverse."""
    if x is None:
        return "n/a"
    if inverse and 0 < x < 0.1:
        return "%.2gx (1/%.0f)" % (x, 1 / x)
    return "%.3gx" % x


def aot_section(bench_dir):
    doc = load(os.path.join(bench_dir, "aot.json"))
    aot = runs(doc)
    ctx = (doc or {}).get("context", {})
    L = [AOT_HEADING + "\n"]
    L.append("`benchmarks/AotBench.cpp`: a library that "
             "`Executable::compileFileTo` wrote once, into a temporary "
             "directory before any timing, against the JIT, with the same "
             "`CompileOptions` (the entry, opt level 3; the library is "
             "compiled for `x86-64-v3`, the JIT for this CPU). Load against "
             "compile: each iteration runs `Executable::compileFile` of "
             "`diffrax/sde.mlir` once and `Executable::load` of its `.so` "
             "once (4 iterations per repetition). Call: JitBench's "
             "`callOverhead` program (one `call` that adds one to a "
             "`tensor<1xf32>`) through a JIT executable and through its "
             "loaded library, in alternating batches of 1000 calls. Both "
             "sides of each ratio come from the same iterations; the ratio is "
             "the median over 5 repetitions, with its min–max. Before timing, "
             "each library's outputs are checked bit for bit against the "
             "JIT's on one call (`solve_sde` and the call program).\n")
    if not doc:
        L.append("No `aot.json` in this run.\n")
        return L
    m = machine(doc)
    L.append("This section's run: %s, commit %s, load average %s.\n" % (
        ctx.get("date", "unknown"), m["commit"],
        ", ".join("%.1f" % x for x in ctx.get("load_avg", [])) or "unknown"))

    def find(prefix):
        for name, r in aot.items():
            if name == prefix or name.startswith(prefix + "/"):
                return r
        return None

    L.append("| measure | JIT | AOT library | AOT / JIT | min–max |")
    L.append("|---|---|---|---|---|")
    rows = [("sdeLoadVsCompile/main", "SDE `@main`: `compileFile` / `load`",
             "compile_ms", "load_ms", 1e-3),
            ("sdeLoadVsCompile/solve_sde", "SDE `@solve_sde`: `compileFile` / `load`",
             "compile_ms", "load_ms", 1e-3),
            ("callJitVsAot", "one `call`", "jit_call_us", "aot_call_us", 1e-6)]
    sizes = []
    for prefix, what, jk, ak, scale in rows:
        r = find(prefix)
        if r is None or not r["counters"].get("ratio"):
            L.append("| %s | %s | | | |" % (
                what, "failed: %s" % r["error"] if r and r["error"] else "n/a"))
            continue
        rs = r["counters"]["ratio"]
        L.append("| %s | %s | %s | %s | %s–%s%s |" % (
            what, fmt_time(scale * counter(r, jk)), fmt_time(scale * counter(r, ak)),
            fmt_quotient(med(rs)), fmt_quotient(min(rs), False), fmt_quotient(max(rs), False),
            " (noisy)" if min(rs) > 0 and max(rs) / min(rs) > NOISY else ""))
        if counter(r, "so_kib"):
            sizes.append("`%s` %.0f KiB" % (prefix.split("/")[1], counter(r, "so_kib")))
    L.append("")
    if sizes:
        L.append("Library sizes: %s.\n" % ", ".join(sizes))
    return L


DIVERGENT_HEADING = "## The divergent suite (`loom-bench-divergent`)"
STRATEGY_ORDER = ["uniform", "masked", "per-lane", "gang", "gang-refill", "auto"]
SEED_WORKLOADS = ("mwe-b3000", "ode-b300", "sde-b300")
# The fixed strategies loom-bench-seed times for SEED_WORKLOADS, in the order
# of loom-bench-divergent's strategies() (its `same_code_as` indexes them).
SEED_STRATEGIES = ("masked", "per-lane", "gang", "gang-refill")


def divergent_table(bench_dir):
    """The suite's medians: a list of rows, one per program and shard count,
    {program, held_out, shards, times: {strategy: s}, fastest, auto_choice,
    auto_over_fastest}, and the same for the seed's workloads (from
    seed.json, loop-sync auto), and the run's JSON document (or {})."""
    doc = load(os.path.join(bench_dir, "divergent.json"))
    rows = []
    groups = {}
    runs_doc = runs(doc)
    for name, r in runs_doc.items():
        parts = name.split("/")
        if len(parts) != 4 or parts[0] != "divergent":
            continue
        groups.setdefault((parts[1], int(parts[2][1:])), {})[parts[3]] = r
    for (prog, shards), variants in sorted(groups.items()):
        order = sorted(variants, key=lambda k: (STRATEGY_ORDER.index(k)
                                                if k in STRATEGY_ORDER else 99, k))
        times = {k: med(variants[k]["times"]) for k in order
                 if variants[k]["times"]}
        auto = variants.get("auto")
        choice, same = None, None
        if auto and counter(auto, "loops") is not None:
            m, n = counter(auto, "masked_loops"), counter(auto, "loops")
            choice = ("per-lane" if m == 0 else "masked" if m == n else
                      "%d of %d loops masked" % (m, n))
            fixed = [k for k in order if k != "auto"]
            i = int(counter(auto, "same_code_as") or 0)
            same = fixed[i - 1] if 0 < i <= len(fixed) else None
        rows.append(summarise_row({"program": prog, "shards": shards,
                                   "held_out": bool(counter(auto or {"counters": {}},
                                                            "held_out")),
                                   "times": times, "auto_choice": choice,
                                   "same_code_as": same}))
    seed = runs(load(os.path.join(bench_dir, "seed.json")))
    seeds = []
    for wl in SEED_WORKLOADS:
        for shards in (1, 2):
            times = {}
            for d in SEED_STRATEGIES + ("auto",):
                r = seed.get("%s/s%d/sync:auto/div:%s" % (wl, shards, d))
                if r and r["times"]:
                    times[d] = med(r["times"])
            code = runs_doc.get("seed-code/%s/s%d" % (wl, shards))
            i = int(counter(code, "same_code_as") or 0) if code else 0
            if times:
                seeds.append(summarise_row({
                    "program": wl, "shards": shards, "held_out": True,
                    "times": times, "auto_choice": None,
                    "same_code_as": SEED_STRATEGIES[i - 1]
                    if 0 < i <= len(SEED_STRATEGIES) else None}))
    return rows, seeds, doc or {}


def summarise_row(row):
    """Adds the fastest fixed strategy and auto's ratios. When auto's lowered
    module is a fixed strategy's, auto is that strategy's time: the two runs
    time the same code, and between them is only the machine's noise."""
    fixed = {k: v for k, v in row["times"].items() if k != "auto"}
    row["fastest"] = min(fixed, key=fixed.get) if fixed else None
    auto = row["times"].get("auto")
    if row.get("same_code_as") in fixed:
        auto = fixed[row["same_code_as"]]
    row["auto_over_fastest"] = (auto / fixed[row["fastest"]]
                                if auto and fixed else None)
    row["auto_over_per_lane"] = (auto / row["times"]["per-lane"]
                                 if auto and row["times"].get("per-lane") else None)
    return row


def divergent_section(bench_dir):
    rows, seeds, doc = divergent_table(bench_dir)
    ctx = doc.get("context", {})
    L = [DIVERGENT_HEADING + "\n"]
    L.append("`benchmarks/DivergentBench.cpp`: each program of "
             "`benchmarks/divergent/` (%d divergent programs: int and float "
             "bodies, light and heavy, 1 to 3 levels, zero-trip lanes, caps, "
             "reads at per-lane indices, `scf.if` in loops, libm calls, "
             "random numbers; each "
             "file's header says what it covers) over 12,800 lanes, 64 "
             "distinct lanes tiled (`benchmarks/divergent/suite.py` generates "
             "them), `@main` compiled under every divergent-loop strategy at "
             "1 and 2 shards and timed side by side in one run; each "
             "variant's outputs are checked bit for bit against the 1-shard "
             "per-lane run first. Medians of %d repetitions, interleaved at "
             "random across all variants, wall time. " % (
                 len({r["program"] for r in rows}), repetitions(doc, 5)) +
             "*fastest* is the fastest fixed strategy; *auto chose* is how "
             "many of its loops `auto` compiled masked (from a compile with "
             "loop counters), and whose code it is when its lowered module "
             "(`EmitStage::MLIR`) is identical to a fixed strategy's; *auto "
             "/ fastest* then uses that strategy's time, since the two runs "
             "time the same code and differ only by the machine's noise "
             "(this 2-core machine is shared; the auto column is still "
             "auto's own run). The cost model is fitted on the *fit* half "
             "only (`benchmarks/fit-cost-model.py`, docs/vmap.md); the "
             "*held-out* half and the seed's programs judge it.\n")
    if not rows:
        L.append("No `divergent.json` in this run.\n")
        return L
    L.append("This section's run: %s, load average %s.\n" % (
        ctx.get("date", "unknown"),
        ", ".join("%.1f" % x for x in ctx.get("load_avg", [])) or "unknown"))
    strategies = []
    for r in rows:
        for k in r["times"]:
            if k != "auto" and k not in strategies:
                strategies.append(k)
    L.append("| program | half | shards | %s | auto | fastest | auto chose "
             "| auto / fastest |" % " | ".join(strategies))
    L.append("|---|---|---|%s---|---|---|---|" % ("---|" * len(strategies)))
    for r in rows:
        L.append("| `%s` | %s | %d | %s | %s | %s | %s | %s |" % (
            r["program"], "held-out" if r["held_out"] else "fit", r["shards"],
            " | ".join(fmt_time(r["times"].get(k)) for k in strategies),
            fmt_time(r["times"].get("auto")), r["fastest"] or "n/a",
            (r["auto_choice"] or "n/a") + (" (%s's code)" % r["same_code_as"]
                                           if r.get("same_code_as") else ""),
            fmt_ratio(r["auto_over_fastest"])))
    L.append("")
    if seeds:
        L.append("The seed's programs, timed by `loom-bench-seed` in the "
                 "same `make bench` (loop-sync auto); *auto's code* from "
                 "`loom-bench-divergent`'s `seed-code/` entries, which compare "
                 "the lowered modules:\n")
        L.append("| program | shards | %s | auto | fastest "
                 "| auto's code | auto / fastest |" % " | ".join(SEED_STRATEGIES))
        L.append("|---|---|%s---|---|---|---|" % ("---|" * len(SEED_STRATEGIES)))
        for r in seeds:
            L.append("| `%s` | %d | %s | %s | %s | %s | %s |" % (
                r["program"], r["shards"],
                " | ".join(fmt_time(r["times"].get(k)) for k in SEED_STRATEGIES),
                fmt_time(r["times"].get("auto")), r["fastest"],
                r.get("same_code_as") or "its own",
                fmt_ratio(r["auto_over_fastest"])))
        L.append("")
    L.append("| measure | 1 shard | 2 shards | target |")
    L.append("|---|---|---|---|")

    def worst(rs, shards):
        xs = [r["auto_over_fastest"] for r in rs
              if r["shards"] == shards and r["auto_over_fastest"]]
        return max(xs) if xs else None

    def median_speedup(rs, shards):
        xs = [1 / r["auto_over_per_lane"] for r in rs
              if r["shards"] == shards and r["auto_over_per_lane"]]
        return med(xs)

    for label, rs in (("fit half", [r for r in rows if not r["held_out"]]),
                      ("held-out half", [r for r in rows if r["held_out"]]),
                      ("seed's programs", seeds)):
        L.append("| worst auto / fastest, %s | %s | %s | %s |" % (
            label, fmt_ratio(worst(rs, 1)), fmt_ratio(worst(rs, 2)),
            "" if label == "fit half" else "at most 1.15x"))
    held = [r for r in rows if r["held_out"]]
    L.append("| median per-lane / auto (speedup), held-out half | %s | %s | "
             "at least 1.5x |" % (fmt_ratio(median_speedup(held, 1)),
                                  fmt_ratio(median_speedup(held, 2))))
    L.append("")
    return L


def replace_section(doc_path, heading, lines):
    """Replaces the fixed introduction and the section `heading` of the page
    at doc_path, or appends the section; every other section is kept."""
    with open(doc_path) as f:
        text = f.read()
    chunks = re.split(r"(?m)^(?=## )", text)
    chunks[0] = "\n".join(preamble()) + "\n"
    new = "\n".join(lines) + "\n"
    for i, c in enumerate(chunks):
        if i and c.splitlines()[0] == heading:
            chunks[i] = new
            break
    else:
        if not chunks[-1].endswith("\n\n"):
            chunks[-1] += "\n"
        chunks.append(new)
    with open(doc_path, "w") as f:
        f.write("".join(chunks).rstrip("\n") + "\n")


def main():
    args = sys.argv[1:]
    if args[:1] == ["--section"]:
        sections = {"aot": (AOT_HEADING, aot_section),
                    "divergent": (DIVERGENT_HEADING, divergent_section),
                    "masked": (MASKED_HEADING, lambda d: masked_section(
                        d, sys.modules[__name__]))}
        if args[1:2] == [] or args[1] not in sections or len(args) != 5:
            sys.exit("usage: report.py [--section aot|divergent|masked] "
                     "BENCH_DIR DOC IMG_DIR")
        heading, render = sections[args[1]]
        replace_section(args[3], heading, render(args[2]))
        print("report.py: replaced the %s section of %s" % (args[1], args[3]))
        return
    bench_dir, doc_path, img_dir = args[:3]
    os.makedirs(img_dir, exist_ok=True)
    seed_doc = load(os.path.join(bench_dir, "seed.json"))
    seed = runs(seed_doc)
    jit = runs(load(os.path.join(bench_dir, "jit.json")))
    mesh = runs(load(os.path.join(bench_dir, "mesh.json")))
    memory = load(os.path.join(bench_dir, "memory.json"))
    m = machine(seed_doc)

    L = preamble()
    L.append("## Machine and run\n")
    L.append("- `nproc` = %s, CPU: %s" % (m["nproc"], m["model"]))
    L.append("- Compiler: %s; %s" % (m["cxx"], m["os"]))
    L.append("- Date: %s; commit %s" % (m["date"], m["commit"]))
    if m["load"]:
        L.append("- Load average when the seed benchmarks started: %s. The "
                 "machine is shared with other builds, so real times move with "
                 "their load; runs whose max/min over the repetitions exceeds "
                 "%.1f are marked noisy." % (", ".join("%.1f" % x for x in m["load"]), NOISY))
    if m["library_debug"]:
        L.append("- Debian's Google Benchmark prints \"Library was built as "
                 "DEBUG\": that concerns the library, not the code it times.")
    L.append("")

    # --- The seed's workloads -------------------------------------------
    L.append("## The seed's workloads under every lowering (`loom-bench-seed`)\n")
    L.append("Each variant is compiled once, outside timing, with "
             "`CompileOptions{shards, loopSync, divergent}` and called on the "
             "whole batch through `Executable::callNamed`; sharded entries run "
             "on the executable's persistent thread mesh. Before timing, its "
             "outputs are compared bit for bit with the 1-shard auto run, and "
             "a difference fails the run. The baseline is "
             "`benchmarks/baseline/Seed.h` (`mweSolve`, `odeSolve`, `sdeSolve` "
             "with the C library's float functions, -O3, no contraction), one "
             "scalar solve per lane, the lanes split over as many std::threads "
             "as shards (threads started per call; `mweSolve` also keeps "
             "per-lane statistics, which allocate). Median and min–max of %d "
             "repetitions of wall time per call, interleaved at random across "
             "all variants; ratios are of medians. With "
             "one shard loop-sync has nothing to synchronise, and per-lane "
             "loops have no predicate collective, so those run with "
             "loop-sync auto only. 10 shards on %s cores are oversubscribed, "
             "as in the seed.\n" % (repetitions(seed_doc, 3), m["nproc"]))
    L.append("**lane util** and **collectives/call** are what `loom-run "
             "--stats` reports, measured on one call of each variant before "
             "it is timed: the lane utilisation of its masked loops (active "
             "lane-iterations over the lane-iterations they ran, every "
             "shard's iterations times its lanes; 1 when the variant has no "
             "masked loop, as per-lane variants do), read from a second "
             "compile with loop counters so the timed code carries none; and "
             "the collectives the busiest shard ran in that call.\n")
    seed_tables(seed, L)

    # --- Issue 5's speed items --------------------------------------------
    L.append("## Sharding speed (issue 5)\n")
    wl = "mwe-b3000"
    auto2 = seed.get(wl + "/s2/sync:auto/div:auto")
    pmap2 = seed.get(wl + "/s2/pmap")
    base2 = seed.get(wl + "/s2/baseline")
    auto1 = seed.get(wl + "/s1/sync:auto/div:auto")
    t = lambda r: med(r["times"]) if r and r["times"] else None
    def q(a, b):
        return a / b if a and b else None
    L.append("| measure | value | target |")
    L.append("|---|---|---|")
    L.append("| MWE b3000, 2 shards: `auto` / explicit per-shard (pmap) | %s (%s vs %s) | at most 1.05x |" % (
        fmt_ratio(q(t(auto2), t(pmap2))), fmt_time(t(auto2)), fmt_time(t(pmap2))))
    L.append("| MWE b3000, 2 shards: `auto` / plain C++ on 2 threads | %s (baseline %s) | at most 1.1x |" % (
        fmt_ratio(q(t(auto2), t(base2))), fmt_time(t(base2))))
    L.append("| MWE b3000, `auto`: 1 shard / 2 shards (speedup) | %s | at least 1.8x |" % (
        fmt_ratio(q(t(auto1), t(auto2)))))
    for s in (2, 10):
        L.append("| MWE b3000, %d shards: global/auto | %s | seed: 20x (CPU) |" % (
            s, fmt_ratio(ratio(seed, wl, s, "sync:global/div:masked", "sync:auto/div:auto"))))
    for s in (2, 4, 10):
        r = mesh.get("MeshAllReduceI1/shards:%d" % s)
        pr = counter(r, "per_round")
        L.append("| one collective round (`loom_rt_all_reduce_i1`), %d shards | %s%s | |" % (
            s, fmt_time(pr), " (noisy)" if noisy(r) else ""))
    L.append("")
    L.append("The collective round is `loom-bench-mesh`'s `MeshAllReduceI1` "
             "(median `per_round` over its 5 repetitions of 1000 rounds each). Other "
             "rounds it measures:\n")
    L.append("| benchmark | per round |")
    L.append("|---|---|")
    for name, r in mesh.items():
        if "per_round" in r["counters"]:
            L.append("| `%s` | %s%s |" % (name, fmt_time(counter(r, "per_round")),
                                         " (noisy)" if noisy(r) else ""))
    L.append("")

    # --- The plot -----------------------------------------------------------
    L.append("## Loom's global/auto next to the seed's\n")
    L.append("`sync:global/div:masked` (what jax.jit + GSPMD does to the "
             "seed's programs: every divergent loop's predicate all-reduced on "
             "every iteration) over `sync:auto/div:auto`, medians.\n")
    plot_global(seed, img_dir, L)

    # --- Memory and compile time -------------------------------------------
    L.append("## Compile time and peak memory\n")
    L.append("Compile time (`Executable::compileTimes().total()`: parse, MLIR "
             "pipeline, LLVM) of each program's @main at 1 shard under each "
             "divergent-loop strategy, from `loom-bench-seed`; every "
             "variant's is in the tables above.\n")
    strategies = ("auto", "masked", "per-lane")
    L.append("| program | " + " | ".join("`%s`" % d for d in strategies) + " |")
    L.append("|---|" + "---|" * len(strategies))
    for wl, prog in (("mwe-b30", "mwe/while_of_while.mlir"),
                     ("ode-b300", "diffrax/ode.mlir"),
                     ("sde-b300", "diffrax/sde.mlir")):
        cells = []
        for d in strategies:
            c = counter(seed.get(wl + "/s1/sync:auto/div:" + d), "compile_ms")
            cells.append("n/a" if c is None else "%.0f ms" % c)
        L.append("| `%s` | %s |" % (prog, " | ".join(cells)))
    L.append("")
    if memory:
        L.append("Peak memory: `loom-bench-seed --peak-memory-ode=%d` in its "
                 "own process compiles `diffrax/ode.mlir` @main (1 shard, auto) "
                 "and calls it once on %d lanes (y0 = 0.1 + 0.01 i, seed "
                 "parameters); `getrusage` max RSS: %.1f MiB at start, %.1f "
                 "MiB with the inputs, %.1f MiB after compiling, **%.1f MiB** "
                 "after the call (%.2f s; outputs alone are %.1f MiB of ys)." % (
                     memory["batch"], memory["batch"], memory["max_rss_start_mib"],
                     memory["max_rss_inputs_mib"], memory["max_rss_compiled_mib"],
                     memory["max_rss_after_call_mib"], memory["call_s"],
                     memory["batch"] * 100 * 4 / 2**20))
        L.append("")

    # --- The JIT ------------------------------------------------------------
    L.append("## The CPU JIT and its embedded API (`loom-bench-jit`)\n")
    L.append("`benchmarks/JitBench.cpp`: parse-to-callable time of the seed's "
             "scalar entries (`compile*`, by optimization level, with the API's "
             "parse/lower/LLVM breakdown), the cost of one `call` "
             "(`callOverhead`), and the MWE over 3000 lanes one `call` per lane "
             "(`mweJit`) against `mweSolve` (`mweCpp`) and allocation-free "
             "scalar C++ (`mweCppScalar`); `mweJitOverCpp` interleaves them "
             "(`ratio`: JIT over `mweSolve`, target at most 1.2; `ratio_scalar`: "
             "over the scalar loop). Median of 5 repetitions, wall time (CPU "
             "time in parentheses).\n")
    L.append("| benchmark | median | min–max | counters |")
    L.append("|---|---|---|---|")
    jdoc = load(os.path.join(bench_dir, "jit.json")) or {}
    cpu = {}
    for b in jdoc.get("benchmarks", []):
        if b.get("run_type") != "aggregate":
            scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[b.get("time_unit", "ns")]
            cpu.setdefault(plain_name(b.get("run_name", b["name"])), []).append(b["cpu_time"] * scale)
    for name, r in jit.items():
        if not r["times"]:
            L.append("| `%s` | failed: %s | | |" % (name, r["error"]))
            continue
        cs = ", ".join("%s %.3g" % (k, med(v)) for k, v in sorted(r["counters"].items()))
        L.append("| `%s` | %s (%s CPU) | %s–%s%s | %s |" % (
            name, fmt_time(med(r["times"])), fmt_time(med(cpu.get(name, []))),
            fmt_time(min(r["times"])), fmt_time(max(r["times"])),
            " (noisy)" if noisy(r) else "", cs))
    L.append("")
    L += aot_section(bench_dir)
    L += divergent_section(bench_dir)
    L += masked_section(bench_dir, sys.modules[__name__])
    # Sections other benchmarks own (`make bench-mpi`'s) are kept as they
    # are.
    # A heading may end in its own blank line ("## X\n").
    rendered = {line.splitlines()[0] for line in L if line.startswith("## ")}
    old = open(doc_path).read() if os.path.exists(doc_path) else ""
    for chunk in re.split(r"(?m)^(?=## )", old)[1:]:
        if chunk.splitlines()[0] not in rendered:
            L += ["", chunk.rstrip("\n"), ""]
    with open(doc_path, "w") as f:
        f.write("\n".join(L))
    print("report.py: wrote %s and %s/" % (doc_path, img_dir))


if __name__ == "__main__":
    main()
