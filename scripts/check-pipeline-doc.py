#!/usr/bin/env python3
"""Checks that the pipeline docs/architecture.md describes is the one Loom
builds: the pass names in the fenced block between `<!-- pipeline:begin -->`
and `<!-- pipeline:end -->` must be, in order, the passes of the textual
pipeline that `loom-opt --dump-pass-pipeline` prints on stdin (op anchors
such as `func.func(...)` and pass options left out). Exits 1 and prints
both lists' first difference otherwise.

usage: loom-opt ... --dump-pass-pipeline 2>&1 | check-pipeline-doc.py DOC

In the block, each line is `pass-name  what it does`; a line that starts
with `#` is a heading, and a blank line is nothing."""

import re
import sys


def documented(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    m = re.search(r"<!-- pipeline:begin -->(.*?)<!-- pipeline:end -->", text, re.S)
    if not m:
        sys.exit(f"check-pipeline-doc: no pipeline block in {path}")
    names = []
    for line in m.group(1).splitlines():
        line = line.strip()
        if not line or line.startswith("#") or line.startswith("```"):
            continue
        names.append(line.split()[0])
    return names


def built(dump):
    line = next((l for l in dump.splitlines() if l.startswith("builtin.module(")), None)
    if line is None:
        sys.exit("check-pipeline-doc: no textual pipeline on stdin")
    # Options may nest braces; drop them innermost first.
    while True:
        stripped = re.sub(r"\{[^{}]*\}", "", line)
        if stripped == line:
            break
        line = stripped
    tokens = [t.strip() for t in re.split(r"[(),]", line)]
    # Anchors name an op (`builtin.module`, `func.func`); passes have no dot.
    return [t for t in tokens if t and "." not in t]


def main():
    doc = documented(sys.argv[1])
    real = built(sys.stdin.read())
    if doc == real:
        print(f"check-pipeline-doc: {len(real)} passes, as documented")
        return 0
    for i, (d, r) in enumerate(zip(doc + [None] * len(real), real + [None] * len(doc))):
        if d != r:
            print(f"check-pipeline-doc: stage {i + 1}: {sys.argv[1]} says "
                  f"{d or '(nothing)'}, the pipeline runs {r or '(nothing)'}")
            break
    print("documented: " + " ".join(doc))
    print("built:      " + " ".join(real))
    return 1


if __name__ == "__main__":
    sys.exit(main())
