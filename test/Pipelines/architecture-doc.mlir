// docs/architecture.md lists the pipeline stage by stage; this holds it to
// what lib/Pipelines/Pipelines.cpp builds, in order (the API's first stage,
// loom-pipeline and loom-to-llvm, every optional stage on).
// RUN: loom-opt %s --pass-pipeline='builtin.module(loom-check-static-bounds,loom-pipeline{counters=1},loom-to-llvm{fp-contraction=1 libm-to-arith=1 lane-vectors=1})' --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | %python %loom_src/scripts/check-pipeline-doc.py %loom_src/docs/architecture.md | FileCheck %s
// CHECK: check-pipeline-doc: {{[0-9]+}} passes, as documented

// The checker itself fails on a pipeline that differs from the document.
// RUN: loom-opt %s --pass-pipeline='builtin.module(loom-pipeline,loom-to-llvm)' --dump-pass-pipeline -o /dev/null 2>&1 \
// RUN:   | not %python %loom_src/scripts/check-pipeline-doc.py %loom_src/docs/architecture.md | FileCheck %s --check-prefix=DIFF
// DIFF: stage 1: {{.*}}architecture.md says loom-check-static-bounds, the pipeline runs loom-annotate-batch-axes

module {}
