"""Lists the buffers allocated or copied inside loops of printed MLIR.

Reads IR on buffers (as mlir-opt prints it: one op per line, two spaces of
indentation per region) from stdin and prints, for each function, how many
loops it has and each memref.alloc, memref.alloca or memref.copy that sits
inside one of them, so that lit can check that a lowering allocates and
copies nothing per iteration.
"""

import re
import sys

LOOP = re.compile(r"\bscf\.(while|for|parallel)\b")
BUFFER = re.compile(r"\bmemref\.(alloc|alloca|copy)\b")
FUNC = re.compile(r"\bfunc\.func\s+(?:private\s+)?@([\w$.]+)")


def main():
    func, loops, found = None, 0, []
    open_regions = []  # (indent, is_loop) of the ops whose regions are open

    def report():
        if func is None:
            return
        print(f"@{func}: {loops} loops, {len(found)} buffer ops in loops")
        for line in found:
            print(f"  in a loop: {line}")

    for raw in sys.stdin:
        line = raw.rstrip("\n")
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        while open_regions and open_regions[-1][0] >= indent:
            open_regions.pop()
        match = FUNC.search(line)
        if match:
            report()
            func, loops, found = match.group(1), 0, []
        is_loop = bool(LOOP.search(line))
        loops += is_loop
        if BUFFER.search(line) and any(loop for _, loop in open_regions):
            found.append(line.strip())
        if line.endswith("{"):
            open_regions.append((indent, is_loop))
    report()


main()
