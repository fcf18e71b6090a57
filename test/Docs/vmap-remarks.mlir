// The remarks docs/vmap.md ("## Remarks") shows are the compiler's: every
// line of its code blocks there is printed by one of these runs (file
// locations aside), so a changed reason or cost model number fails this
// test until the page shows it too.
//
// RUN: loom-opt %examples/mwe/while_of_while.mlir --loom-pipeline='divergent=masked' 2>&1 >/dev/null | sed -n 's/^.*remark: //p' > %t
// RUN: loom-opt %examples/mwe/while_of_while.mlir --loom-pipeline='divergent=per-lane' 2>&1 >/dev/null | sed -n 's/^.*remark: //p' >> %t
// RUN: loom-opt %examples/mwe/while_of_while.mlir --loom-pipeline='divergent=gang refill=1' 2>&1 >/dev/null | sed -n 's/^.*remark: //p' >> %t
// RUN: loom-opt %loom_src/benchmarks/divergent/relax_uniform.mlir --loom-pipeline 2>&1 >/dev/null | sed -n 's/^.*remark: //p' >> %t
// RUN: loom-opt %examples/diffrax/sde.mlir --loom-pipeline 2>&1 >/dev/null | sed -n 's/^.*remark: //p' >> %t
// RUN: loom-opt %examples/diffrax/ode.mlir --loom-pipeline 2>&1 >/dev/null | sed -n 's/^.*remark: //p' >> %t
// RUN: loom-opt %examples/diffrax/ode.mlir --loom-pipeline='divergent=masked' 2>&1 >/dev/null | sed -n 's/^.*remark: //p' >> %t
// RUN: %python %S/doc_lines.py %loom_src/docs/vmap.md "## Remarks" %t
//
// A line the runs do not print fails it.
// RUN: sed -e 's/masked 507 <= per-lane 538/masked 506 <= per-lane 538/' %loom_src/docs/vmap.md > %t.bad.md
// RUN: not %python %S/doc_lines.py %t.bad.md "## Remarks" %t
