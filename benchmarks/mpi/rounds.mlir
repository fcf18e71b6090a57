// One collective round per iteration and nothing else: every lane counts to
// its own n (the same n on every lane, but the predicate is per lane), so a
// masked, globally synchronised loop makes one predicate all-reduce per
// iteration. mpi_bench.py divides a call's time by its collectives.
func.func @count(%n: i32 {loom.name = "n"}) -> (i32 {loom.name = "i"}) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    %i1 = arith.addi %i, %c1 : i32
    scf.yield %i1 : i32
  }
  return %r : i32
}
func.func @main(%ns: tensor<?xi32> {loom.name = "ns"})
    -> (tensor<?xi32> {loom.name = "is"}) {
  %r = loom.vmap @count(%ns) in_axes [0] out_axes [0]
      : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
