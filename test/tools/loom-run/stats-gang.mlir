// --stats under divergent=gang: each gang's masked loop runs on its W lanes,
// so lane utilisation is active lane-iterations / (iterations x W), not x
// the shard's lanes. Worked by hand for x = [3, 1, 0, 2, 5] (lane b counts
// down from x[b]), W = 4. A masked loop counts, at each trip that goes on,
// the lanes still active after the update (the predicate on the new
// carries), so a lane with x trips is counted x - 1 times, on x - 1 trips.
//
// gangs: [3, 1, 0, 2] goes on 2 trips (2 then 1 lanes), [5 + 3 padding]
// 4 trips (1 lane each): 6 iterations, 3 + 4 = 7 active, 6 x 4 = 24 slots.
// RUN: python3 -c "import struct,sys; h=\"{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }\".ljust(117)+'\n'; sys.stdout.buffer.write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode()+struct.pack('<5i',3,1,0,2,5))" > %t.npy
// RUN: loom-run %s --divergent gang --gang-width 4 --input xs=%t.npy --stats | FileCheck %s --check-prefix=GANG
// GANG: steps: 5xi32 {{.*}}[3, 1, 0, 2, ...]
// GANG: loop {{.*}}stats-gang.mlir:[[@LINE+29]]:10 (masked): iterations per shard per call [6], active lane-iterations 7 of 24 (29.2% lane utilisation)
//
// 2 shards, [3, 1, 0] and [2, 5]: one gang each, [3, 1, 0 + 1] on 2 trips
// (1, 1), [2, 5 + 2] on 4 (2, 1, 1, 1): 7 active of (2 + 4) x 4.
// RUN: loom-run %s --divergent gang --gang-width 4 --shards 2 --input xs=%t.npy --stats | FileCheck %s --check-prefix=TWO
// TWO: iterations per shard per call [2, 4], active lane-iterations 7 of 24 (29.2% lane utilisation)
//
// Refill: the slots' loop counts its live slots at every trip. Slots start
// with lanes 0-3; trip 1: lane 2 (x = 0) leaves and its slot takes lane 4;
// trip 2: lane 1 leaves, nothing is left to take; trip 3: lane 3; trip 4:
// lane 0; trips 5-7: lane 4 alone. Live slots 4, 4, 3, 2, 1, 1, 1 = 16 of
// 7 x 4 = 28.
// RUN: loom-run %s --divergent gang --gang-width 4 --refill --input xs=%t.npy --stats | FileCheck %s --check-prefix=REFILL
// REFILL: steps: 5xi32 {{.*}}[3, 1, 0, 2, ...]
// REFILL: iterations per shard per call [7], active lane-iterations 16 of 28 (57.1% lane utilisation)
//
// Masked on the shard's 5 lanes, for comparison: 4 trips, 3 + 2 + 1 + 1.
// RUN: loom-run %s --divergent masked --input xs=%t.npy --stats | FileCheck %s --check-prefix=MASKED
// MASKED: iterations per shard per call [4], active lane-iterations 7 of 20 (35.0% lane utilisation)

// A batch of 0 runs no gang, and refill skips its slots.
// RUN: python3 -c "import struct,sys; h=\"{'descr': '<i4', 'fortran_order': False, 'shape': (0,), }\".ljust(117)+'\n'; sys.stdout.buffer.write(b'\x93NUMPY\x01\x00'+struct.pack('<H',len(h))+h.encode())" > %t.empty.npy
// RUN: loom-run %s --divergent gang --gang-width 4 --input xs=%t.empty.npy | FileCheck %s --check-prefix=EMPTY
// RUN: loom-run %s --divergent gang --gang-width 4 --refill --shards 2 --input xs=%t.empty.npy | FileCheck %s --check-prefix=EMPTY
// EMPTY: steps: 0xi32

func.func @count(%x0: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%x = %x0, %n = %c0) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %x, %c0 : i32
    scf.condition(%go) %x, %n : i32, i32
  } do {
  ^bb0(%x: i32, %n: i32):
    %x1 = arith.subi %x, %c1 : i32
    %n1 = arith.addi %n, %c1 : i32
    scf.yield %x1, %n1 : i32, i32
  }
  return %r#1 : i32
}
func.func @main(%xs: tensor<?xi32> {loom.name = "xs"}) -> (tensor<?xi32> {loom.name = "steps"}) {
  %r = loom.vmap @count(%xs) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
