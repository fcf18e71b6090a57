// A context's attribute storage comes from one allocator, which both Loom's
// ASan-instrumented code (the inlined construction of #loom attributes) and
// the uninstrumented libMLIR (every builtin attribute) allocate from. When a
// Loom attribute started a new slab, ASan saw libMLIR's later allocations in
// that slab as a use-after-poison (found by loom-ir-fuzzer in a CI run); see
// allow_user_poisoning in cmake/modules/LoomSanitizers.cmake. Each generated
// chunk (a fresh context) puts the Loom attribute at a different offset of
// the allocator, so some chunk starts a slab with it whatever MLIR's exact
// allocation sizes are. Only the sanitizer build can fail this; elsewhere it
// checks that every chunk parses.
//
// RUN: %python %S/Inputs/pad-storage-allocator.py 300 > %t.mlir
// RUN: loom-opt --split-input-file %t.mlir | FileCheck %s
// CHECK-COUNT-300: #loom.strategy<masked>
