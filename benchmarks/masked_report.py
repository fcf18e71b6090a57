# ===- masked_report.py - docs/benchmarks.md's loom-bench-masked section ---===#
#
# Part of the Loom project.
#
# ===-----------------------------------------------------------------------===#
#
# Renders the section from BENCH_DIR/masked.json (loom-bench-masked's every
# repetition). report.py imports it; it reads the same JSON helpers.
#
# ===-----------------------------------------------------------------------===#

import os

MASKED_HEADING = ("## Masked loops against hand-written SIMD "
                  "(`loom-bench-masked`)")
# The benchmark's program keys, in table order, and what each one is.
PROGRAMS = (("collatz", "Collatz step counter (i32, 1 level)"),
            ("nested", "float while-of-while (2 levels)"))


def masked_section(bench_dir, rp):
    """The section's lines; `rp` is the report module (load, runs, med,
    fmt_time, fmt_ratio, NOISY)."""
    doc = rp.load(os.path.join(bench_dir, "masked.json"))
    L = [MASKED_HEADING + "\n"]
    L.append("`benchmarks/MaskedBench.cpp`: Loom's `divergent=masked` at one "
             "shard, one thread, 12,800 lanes (64 distinct, tiled), against "
             "`benchmarks/baseline/Masked.cpp`, the same lock-step algorithm "
             "in GCC vector extensions (AVX2, 8 lanes a register, one pass "
             "over the lanes per iteration). Outputs are checked bit for bit "
             "against the baseline before timing. *ratio* is Loom's time "
             "over the baseline's from the same interleaved iterations "
             "(median and min–max over the repetitions); the two time "
             "columns are each side's own runs. Target (issue 14): at most "
             "1.3x. On a machine without AVX2 the benchmark runs nothing and "
             "says so. How the masked forms got here: docs/vmap.md.\n")
    if not doc:
        L.append("No `masked.json` in this run.\n")
        return L
    ctx = doc.get("context", {})
    L.append("This section's run: %s, load average %s.\n" % (
        ctx.get("date", "unknown"),
        ", ".join("%.1f" % x for x in ctx.get("load_avg", [])) or "unknown"))
    res = rp.runs(doc)
    L.append("| program | Loom masked | hand-written SIMD | ratio | min–max "
             "| compile |")
    L.append("|---|---|---|---|---|---|")
    for key, what in PROGRAMS:
        loom = res.get(key + "/loom-masked")
        base = res.get(key + "/baseline-simd")
        both = res.get(key + "/interleaved")
        errors = [r["error"] for r in (loom, base, both) if r and r["error"]]
        if errors or not both or not both["counters"].get("ratio"):
            L.append("| %s | %s | | | | |" % (
                what, "failed: %s" % errors[0] if errors else "n/a"))
            continue
        rs = both["counters"]["ratio"]
        L.append("| %s | %s | %s | %s | %s–%s%s | %.0f ms |" % (
            what, rp.fmt_time(rp.med(loom["times"]) if loom else None),
            rp.fmt_time(rp.med(base["times"]) if base else None),
            rp.fmt_ratio(rp.med(rs)), rp.fmt_ratio(min(rs)),
            rp.fmt_ratio(max(rs)),
            " (noisy)" if min(rs) > 0 and max(rs) / min(rs) > rp.NOISY else "",
            rp.med(both["counters"].get("compile_ms", [0]))))
    L.append("")
    return L
