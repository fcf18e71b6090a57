#!/usr/bin/env python3
"""Writes docs/tutorial.md from docs/tutorial.md.in by running its commands.

Every fenced block whose info string is `run` (the command must succeed) or
`run-fails` (it must exit non-zero: the tutorial shows an error) holds one
bash command, which may continue over several lines. It becomes a `console`
block: the command after `$ `, then exactly what it printed, stdout and
stderr together. Anything else in the template is copied as it is, so no
output on the page is typed by hand.

The commands run in a fresh temporary folder that holds only `build/bin`
(a link to the tools, --bin) and `python-free-examples` (a link to the
repository's), so they spell the paths a reader types in a clone and what
they write (out/, *.so) lands nowhere near the repository.

Times (the lines `loom-run --time` prints, TIMING below) are the only output
that changes from one run to the next; the page says so under each block
that has one, and test/Docs/tutorial.mlir ignores them when it diffs a fresh
page against docs/tutorial.md.

usage: make-tutorial.py [--bin DIR] [-o OUT]   (defaults: build/bin, docs/tutorial.md)
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Keep in step with the -I patterns of test/Docs/tutorial.mlir.
TIMING = re.compile(r"^(compile|call): ")
FENCE = re.compile(r"^```(run|run-fails)\s*$")
TIMING_NOTE = ("*`compile:` and `call:` are times on the machine that last "
               "ran `scripts/make-tutorial.py`; yours will differ.*")


def run(command, expect_failure, cwd):
    env = dict(os.environ, LC_ALL="C", COLUMNS="80", TERM="dumb")
    # Section 7's mpirun, on a machine where the tutorial runs as root (CI).
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT", "1")
    env.setdefault("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
    proc = subprocess.run(["bash", "-c", command], cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    if (proc.returncode != 0) != expect_failure:
        sys.exit(f"make-tutorial: `{command}` exited {proc.returncode}"
                 f" (expected {'non-zero' if expect_failure else '0'}):\n"
                 f"{proc.stdout}")
    return proc.stdout


def render(template, cwd):
    out = []
    lines = iter(template.splitlines())
    for line in lines:
        m = FENCE.match(line)
        if not m:
            out.append(line)
            continue
        command = []
        for body in lines:
            if body.startswith("```"):
                break
            command.append(body)
        else:
            sys.exit("make-tutorial: unterminated ```run block")
        printed = run("\n".join(command), m.group(1) == "run-fails", cwd)
        out.append("```console")
        out.append("$ " + command[0])
        out.extend("  " + c for c in command[1:])
        out.extend(printed.rstrip("\n").splitlines())
        out.append("```")
        if any(TIMING.match(p) for p in printed.splitlines()):
            out.extend(["", TIMING_NOTE])
    return "\n".join(out) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bin", default=os.path.join(ROOT, "build", "bin"),
                        help="the folder with loom-opt, loom-run, loom-compile, loom-exec")
    parser.add_argument("-o", dest="out", default=os.path.join(ROOT, "docs", "tutorial.md"))
    args = parser.parse_args()
    with open(os.path.join(ROOT, "docs", "tutorial.md.in"), encoding="utf-8") as f:
        template = f.read()
    with tempfile.TemporaryDirectory(prefix="loom-tutorial-") as cwd:
        os.makedirs(os.path.join(cwd, "build"))
        os.symlink(os.path.abspath(args.bin), os.path.join(cwd, "build", "bin"))
        os.symlink(os.path.join(ROOT, "python-free-examples"),
                   os.path.join(cwd, "python-free-examples"))
        page = render(template, cwd)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(page)


if __name__ == "__main__":
    main()
