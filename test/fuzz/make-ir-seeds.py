#!/usr/bin/env python3
"""Writes the seed corpus of loom-ir-fuzzer: one file per test case of each
.mlir given, split at `// -----` as -split-input-file does, named after the
source so that a seed's origin is plain. The corpus directory is replaced.
Also writes OUT.dict, a libFuzzer dictionary of the op names, attribute
names and keywords the seeds use, so that mutations splice whole tokens
rather than bytes that rarely parse.

usage: make-ir-seeds.py OUT FILE.mlir..."""

import os
import re
import shutil
import sys

out, sources = sys.argv[1], sys.argv[2:]
shutil.rmtree(out, ignore_errors=True)
os.makedirs(out)
split = re.compile(r"^// -----.*$", re.MULTILINE)
count = 0
tokens = set()
token = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
for source in sources:
    with open(source, encoding="utf-8", errors="replace") as f:
        text = f.read()
    stem = re.sub(r"[^A-Za-z0-9_.-]", "_", os.path.relpath(source))
    code = "\n".join(line.split("//")[0] for line in text.splitlines())
    tokens.update(t for t in token.findall(code) if len(t) > 1)
    for i, case in enumerate(split.split(text)):
        if not case.strip():
            continue
        with open(os.path.join(out, f"{stem}.{i}"), "w", encoding="utf-8") as f:
            f.write(case)
        count += 1
with open(out.rstrip("/") + ".dict", "w", encoding="utf-8") as f:
    for t in sorted(tokens):
        f.write(f'"{t}"\n')
    for t in ["%", "^bb", "->", "= ", ": ", "(", ")", "{", "}", "<", ">",
              "[", "]", "x", ", ", "\n"]:
        # libFuzzer's escapes are \\, \" and \xNN only.
        f.write('"' + t.replace("\\", "\\\\").replace("\n", "\\x0A") + '"\n')
print(f"make-ir-seeds: {count} seeds from {len(sources)} files in {out}, "
      f"{len(tokens)} tokens in {out}.dict")
