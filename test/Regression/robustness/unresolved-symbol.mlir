// A function the program declares but nobody defines reached the JIT, which
// printed "JIT session error: Symbols not found: [ no_such_function ]" to
// stderr itself, then failed naming only the entry ("Failed to materialize
// symbols: { (main, { main, _mlir_main }) }"): two lines, the second of no
// use. Now it is one line that names the symbol (memrefCopy from MLIR's
// runner utils came this way before loom-lower-strided-copies).
// RUN: not loom-run %s --input 0=fill:1:f32 > %t 2>&1
// RUN: FileCheck %s < %t && count 1 < %t
// CHECK: {{^}}loom-run: JIT compilation failed: the compiled program calls no_such_function, which neither Loom's runtime nor this process defines{{$}}

func.func private @no_such_function(f32) -> f32
func.func @main(%x: f32) -> f32 {
  %y = func.call @no_such_function(%x) : (f32) -> f32
  return %y : f32
}
