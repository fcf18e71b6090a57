// arith.ceildivsi, arith.ceildivui and arith.floordivsi compile and give
// Python's integer semantics (issue 11: "could not convert to LLVM IR", even
// unbatched): unbatched on whole tensors, and vmapped under masked,
// per-lane and auto at 1 to 3 shards, where a lane with divisor 0 never
// divides in the scalar program but the batched one runs both sides of the
// branch and finished lanes of the loop (the trap guard gives them divisor
// 1). ceildivsi(INT_MAX, -1) is among the lanes: MLIR 19's own expansion
// traps on it.
// RUN: python3 %S/division_oracle.py loom-run %S/Inputs/division.mlir | FileCheck %s
// CHECK: tensors : 3 results match
// CHECK-COUNT-9: divs_main --divergent={{.*}}: 4 results match
// CHECK-NEXT: PASS

// Every lane of the vmapped function equals the scalar function on that
// lane's inputs, bit for bit, divisors from -3 to 3.
// RUN: python3 %S/vmap_property.py loom-run %S/Inputs/division.mlir --batch 16 --vmapped divs_main --scalar divs --arg a/0:i32:-20:20:- --arg b/1:i32:-3:4:- --arg n/2:i32:0:5:- --result result0:c --result result1:f --result result2:u --result result3:acc | FileCheck %s --check-prefix=LANES
// LANES: masked: 16 lanes checked
// LANES: per-lane: 16 lanes checked
// LANES: auto: 16 lanes checked
// LANES: PASS
