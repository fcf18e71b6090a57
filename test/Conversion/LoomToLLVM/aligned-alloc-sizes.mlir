// RUN: loom-opt %s -loom-to-llvm | FileCheck %s --check-prefix=PIPE
// RUN: loom-opt %s -loom-to-llvm | mlir-translate --mlir-to-llvmir | opt -O1 -S | FileCheck %s --check-prefix=FOLDED

// A buffer with a zero dimension: finalize-memref-to-llvm sizes it as one
// element, 8 bytes here, and does not pad that to the alignment of 16
// (C11 and AddressSanitizer reject aligned_alloc(16, 8)). Through
// loom-to-llvm, and LLVM's folding, it asks for 16. A dynamic size is
// rounded once, not twice.
// PIPE-LABEL: llvm.func @empty_and_dynamic(
// PIPE: llvm.urem
// PIPE: llvm.call @aligned_alloc(
// FOLDED-LABEL: define {{.*}} @empty_and_dynamic(
// FOLDED: call {{.*}} @aligned_alloc(i64 16, i64 16)
// FOLDED: %[[BUMPED:.*]] = add i64 %{{.*}}, 63
// FOLDED-NEXT: %[[PADDED:.*]] = and i64 %[[BUMPED]], -64
// FOLDED-NEXT: call {{.*}} @aligned_alloc(i64 64, i64 %[[PADDED]])
func.func @empty_and_dynamic(%n: index) -> (memref<0xindex>, memref<?xf32>) {
  %a = memref.alloc() : memref<0xindex>
  %b = memref.alloc(%n) {alignment = 64 : i64} : memref<?xf32>
  return %a, %b : memref<0xindex>, memref<?xf32>
}
