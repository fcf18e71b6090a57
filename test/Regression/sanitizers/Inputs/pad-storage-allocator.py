"""Prints N chunks for loom-opt --split-input-file: chunk k interns k
attribute names before a #loom attribute, then more names after it, so the
Loom attribute's storage lands at a different offset of its context's
allocator in each chunk. See ../mixed-allocator-poisoning.mlir."""

import sys

n = int(sys.argv[1])
chunks = []
for k in range(n):
    pad = ", ".join(f"pad_{i} = {i}" for i in range(k))
    chunks.append(
        f"func.func @f() attributes {{{pad}}} {{\n  return\n}}\n"
        "func.func @g() attributes {x = #loom.strategy<masked>, "
        "a_long_attribute_name_the_storage_must_copy_0123456789 = 1, "
        "another_long_attribute_name_the_storage_must_copy = 2} {\n"
        "  return\n}\n")
print("// -----\n".join(chunks), end="")
