// A module that brought its own loom.loops table, with an entry lacking
// 'loc' and 'masked': loom-run read the entry's fields unchecked and
// segfaulted. The dialect's verifier now checks every entry of the tables
// the runtime reads, so the file is refused where it is parsed.
// RUN: not loom-run %s --input xs=fill:1:4xf32 > %t 2>&1
// RUN: FileCheck %s < %t && count 1 < %t
// CHECK: {{^}}loom-run: {{.*}}bad-runtime-tables.mlir:[[# @LINE + 1]]:1: error: 'loom.loops' entry #0 must be {loc = string, masked = bool} (with an integer 'lanes' and a string 'variant' optional){{$}}
module attributes {loom.loops = [{}]} {
func.func @f(%x: f32) -> f32 {
  %y = arith.addf %x, %x : f32
  return %y : f32
}
func.func @main(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = loom.vmap @f(%xs) in_axes [0] out_axes [0] : (tensor<?xf32>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
}
