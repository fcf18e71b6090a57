"""Checks that every line of the code blocks in one section of a Markdown
page is a line that a run printed (test/Docs/vmap-remarks.mlir).

  doc_lines.py PAGE HEADING PRINTED

A line of the page may carry a location ("ode.mlir:186:12: remark: ..."):
what follows "remark: " is compared. Exits 1 and names each line that no
run printed, or the section if it has no code block.
"""
import sys


def section_blocks(page, heading):
    lines, inside, fence = [], False, False
    for line in page.splitlines():
        if line.startswith("## "):
            inside = line.strip() == heading
            continue
        if not inside:
            continue
        if line.startswith("```"):
            fence = not fence
            continue
        if fence and line.strip():
            lines.append(line.strip())
    return lines


def main(argv):
    page_path, heading, printed_path = argv[1:4]
    with open(page_path) as f:
        shown = section_blocks(f.read(), heading)
    with open(printed_path) as f:
        printed = {line.strip() for line in f}
    if not shown:
        print("doc_lines: %s has no code block under '%s'" % (page_path, heading))
        return 1
    missing = [line for line in shown
               if line.split("remark: ", 1)[-1] not in printed]
    for line in missing:
        print("doc_lines: no run printed: %s" % line)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
