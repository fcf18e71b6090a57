#!/usr/bin/env python3
"""Says whether a sanitizer or libFuzzer crash report is a known upstream
crash, by the signatures of test/fuzz/known-upstream.txt (whose header
defines the format): prints the matching signature and exits 0. Otherwise
it prints `upstream-parser` and exits 2 for a crash inside upstream MLIR's
textual parser that no signature lists yet (every frame from the fault out
to mlir::parseAsmSourceFile is in libMLIR: no Loom code has run on the
input), or prints `loom` and exits 1 for anything else, a crash Loom must
fix.

usage: fuzz-known.py KNOWN_FILE REPORT

Only the report's first stack counts (the crash's; an ASan report's later
stacks say where memory was freed or allocated)."""

import re
import sys

FRAME = re.compile(r"^\s*#(\d+)\s+0x[0-9a-fA-F]+\s+(?:in\s+)?(.*)$")
# Frames that are where the crash was reported, not where it happened.
RUNTIME = re.compile(
    r"__sanitizer|__asan|__ubsan|__lsan|__interceptor|___interceptor|"
    r"\bfuzzer::|llvm::sys::(PrintStackTrace|RunSignalHandlers)|"
    r"SignalHandler|libc\.so|libc_start|\b(abort|raise|gsignal)\b|"
    r"^\s*\(/lib/x86_64-linux-gnu/libc\.so|"
    # The sanitizer's interceptors of libc's memory and string functions,
    # which it links into the instrumented binary under libc's names.
    r"^(memmove|memcpy|memset|memcmp|bcmp|memchr|str[a-z]*|"
    r"malloc|calloc|realloc|free|operator new|operator delete)\b")


def signatures(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield line, [p.strip() for p in line.split(" <- ")]


def first_stack(path):
    frames = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            m = FRAME.match(line)
            if m:
                if frames and int(m.group(1)) == 0:
                    break  # the next stack
                frames.append(m.group(2))
            elif frames:
                break
    return frames


def matches(patterns, frames):
    inner = [i for i, f in enumerate(frames) if not RUNTIME.search(f)][:3]
    for start in inner:
        if patterns[0] not in frames[start]:
            continue
        pos = start + 1
        for p in patterns[1:]:
            while pos < len(frames) and p not in frames[pos]:
                pos += 1
            if pos == len(frames):
                break
            pos += 1
        else:
            return True
    return False


def in_upstream_parser(frames):
    inner = [i for i, f in enumerate(frames) if not RUNTIME.search(f)]
    parse = [i for i, f in enumerate(frames) if "mlir::parseAsmSourceFile" in f]
    if not inner or not parse:
        return False
    return all("libMLIR.so" in f for f in frames[inner[0] : parse[0] + 1])


def main():
    known_file, report = sys.argv[1:3]
    frames = first_stack(report)
    for line, patterns in signatures(known_file):
        if matches(patterns, frames):
            print(line)
            return 0
    if in_upstream_parser(frames):
        print("upstream-parser")
        return 2
    print("loom")
    return 1


if __name__ == "__main__":
    sys.exit(main())
