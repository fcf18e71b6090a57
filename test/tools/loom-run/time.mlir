// --time prints the compile time by stage and the median and minimum of the
// repeated calls, after the output summary; --repeat changes the number of
// calls it reports and nothing in the outputs. Only the format is checked:
// tests assert no durations.

// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:0 --repeat 7 --time | FileCheck %s
// CHECK:      {{^}}y: 1xf32 min=13.5127087 max=13.5127087 mean=13.5127087 [13.5127087]{{$}}
// CHECK-NEXT: {{^}}compile: {{[0-9]+\.[0-9]}} ms (parse {{[0-9]+\.[0-9]}}, lower {{[0-9]+\.[0-9]}}, jit {{[0-9]+\.[0-9]}}){{$}}
// CHECK-NEXT: {{^}}call: median {{[0-9]+\.[0-9][0-9][0-9]}} ms, min {{[0-9]+\.[0-9][0-9][0-9]}} ms over 7 calls{{$}}
// CHECK-NOT: {{.}}

// Without --time, the summary is all there is.
// RUN: loom-run %examples/mwe/while_of_while.mlir --entry solve --input init=fill:0.1:1xf32 --input key=jax-split:0:30:0 --repeat 3 | FileCheck %s --check-prefix=QUIET
// QUIET:     {{^}}y: 1xf32 {{.*}}{{$}}
// QUIET-NOT: {{.}}
