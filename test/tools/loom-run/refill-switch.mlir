// A timed site whose primary is gangs with refill and whose alternative is
// lock-step gangs is one refill loop with its refill switched at run time
// (docs/vmap.md): the first call refills, the second runs lock-step, the
// fifth on runs the faster. Every call must give per-lane's bits. Both
// forms of the refill loop: one pass over the slots for a loop of scalar
// lane ops (@collatz), outlined blocks for a nest (@nest). The cost
// constants put refill first and lock-step gangs within adaptive-factor
// (test/Dialect/Loom/vmap/gang-auto.mlir checks the IR); 100 lanes are three
// gangs of 32 and a tail of 4.

// RUN: loom-opt %s -loom-annotate-batch-axes -loom-vmap="one-pass-op-cost=1 gang-one-pass-op-cost=1 divergence-per-doubling=1 carried-latency-cost=100 gang-overhead=0 refill-op-cost=20" -mlir-print-debuginfo -o %t.mlir 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-COUNT-2: remark: loop is gang (width 32, refill): {{.*}} so the loop can also run lock-step (refill switched off at run time)

// RUN: %python %S/npy.py write %t.xs.npy '<i4' 100 27 1 0 97 -5 7 871 2 3 6 9 18 25 54 73 31 41 47 55 62 63 71 82 91 94 95 96 97 98 99 100 101 103 107 109 111 113 117 121 123 125 127 129 137 141 143 145 147 151 155 157 159 161 163 165 167 169 171 173 175 177 179 181 183 185 187 189 191 193 195 197 199 201 203 205 207 209 211 213 215 217 219 221 223 225 227 229 231 233 235 237 239 241 243 245 247 249 251 253 255
// RUN: rm -rf %t.ref %t.1.1 %t.2.1 %t.5.1 %t.2.2 %t.5.3
// RUN: loom-run %s --entry collatz_vmap --divergent per-lane --input xs=%t.xs.npy --output-dir %t.ref/collatz
// RUN: loom-run %s --entry nest_vmap --divergent per-lane --input xs=%t.xs.npy --output-dir %t.ref/nest
// RUN: for e in collatz nest; do for r in "1 1" "2 1" "5 1" "2 2" "5 3"; do set -- $r; loom-run %t.mlir --entry ${e}_vmap --repeat $1 --shards $2 --input xs=%t.xs.npy --output-dir %t.$1.$2/$e > /dev/null && cmp %t.ref/$e/result0.npy %t.$1.$2/$e/result0.npy || exit 1; done; done

// --stats names the two variants; from the fifth call each shard keeps one.
// RUN: loom-run %t.mlir --entry nest_vmap --repeat 5 --shards 2 --stats --input xs=%t.xs.npy | FileCheck %s --check-prefix=STATS
// STATS: variants at {{.*}}refill-switch.mlir:{{[0-9]+}}:{{[0-9]+}}: primary gang with refill (width 32), alternative gang (width 32); kept per shard [{{(primary|alternative), (primary|alternative)}}]; fastest run per shard in CPU time, primary [{{[0-9.]+, [0-9.]+}}] and alternative [{{[0-9.]+, [0-9.]+}}] ms{{$}}

// Steps of x -> x odd ? 3x + 1 : x / 2 until x <= 1; lanes at or below 1
// never enter.
func.func @collatz(%x: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %three = arith.constant 3 : i32
  %r:2 = scf.while (%v = %x, %n = %zero) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %v, %one : i32
    scf.condition(%go) %v, %n : i32, i32
  } do {
  ^bb0(%v: i32, %n: i32):
    %odd = arith.andi %v, %one : i32
    %isodd = arith.cmpi ne, %odd, %zero : i32
    %up = arith.muli %v, %three : i32
    %up1 = arith.addi %up, %one : i32
    %down = arith.divsi %v, %two : i32
    %next = arith.select %isodd, %up1, %down : i32
    %n1 = arith.addi %n, %one : i32
    scf.yield %next, %n1 : i32, i32
  }
  return %r#1 : i32
}

// sum over i = n down to 1 of i, with an inner loop of i trips on each.
func.func @nest(%n: i32) -> i32 {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %r:2 = scf.while (%i = %n, %acc = %zero) : (i32, i32) -> (i32, i32) {
    %go = arith.cmpi sgt, %i, %zero : i32
    scf.condition(%go) %i, %acc : i32, i32
  } do {
  ^bb0(%i: i32, %acc: i32):
    %inner:2 = scf.while (%j = %i, %k = %acc) : (i32, i32) -> (i32, i32) {
      %more = arith.cmpi sgt, %j, %zero : i32
      scf.condition(%more) %j, %k : i32, i32
    } do {
    ^bb0(%j: i32, %k: i32):
      %j1 = arith.subi %j, %one : i32
      %k1 = arith.addi %k, %one : i32
      scf.yield %j1, %k1 : i32, i32
    }
    %i1 = arith.subi %i, %one : i32
    scf.yield %i1, %inner#1 : i32, i32
  }
  return %r#1 : i32
}

func.func @collatz_vmap(%xs: tensor<?xi32> {loom.name = "xs"}) -> tensor<?xi32> {
  %r = loom.vmap @collatz(%xs) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}

func.func @nest_vmap(%ns: tensor<?xi32> {loom.name = "xs"}) -> tensor<?xi32> {
  %r = loom.vmap @nest(%ns) in_axes [0] out_axes [0] : (tensor<?xi32>) -> tensor<?xi32>
  return %r : tensor<?xi32>
}
