#!/usr/bin/env python3
"""Writes the seed corpus of loom-ir-fuzzer: one file per test case of each
.mlir given, split at `// -----` as -split-input-file does, named after the
source so that a seed's origin is plain. The corpus directory is replaced."""

import os
import re
import shutil
import sys

out, sources = sys.argv[1], sys.argv[2:]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
split = re.compile(r"^// -----.*$", re.MULTILINE)
count = 0
for source in sources:
    with open(source, encoding="utf-8", errors="replace") as f:
        text = f.read()
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.relpath(source))
    for i, case in enumerate(split.split(text)):
        if not case.strip():
            continue
        with open(os.path.join(out, f"{stem}.{i}"), "w", encoding="utf-8") as f:
            f.write(case)
        count += 1
print(f"make-ir-seeds: {count} seeds from {len(sources)} files in {out}")
