// A word that is not one of an enum option's values is refused with one
// line naming the option and the word, in the pipeline and in the passes it
// forwards to.
// RUN: not loom-opt %s --loom-pipeline="divergent=sideways" 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not loom-opt %s --loom-pipeline="divergent=sideways" 2>&1 | count 1
// DIV: {{^}}loom-opt: for the --divergent option: Cannot find option named 'sideways'!{{$}}
// RUN: not loom-opt %s --loom-pipeline="loop-sync=sometimes" 2>&1 | FileCheck %s --check-prefix=SYNC
// RUN: not loom-opt %s --loom-pipeline="loop-sync=sometimes" 2>&1 | count 1
// SYNC: {{^}}loom-opt: for the --loop-sync option: Cannot find option named 'sometimes'!{{$}}
// RUN: not loom-opt %s --loom-pipeline="target=tpu" 2>&1 | FileCheck %s --check-prefix=TARGET
// TARGET: {{^}}loom-opt: for the --target option: Cannot find option named 'tpu'!{{$}}

// The spellings are case-sensitive, as loom-run's and the API's are.
// RUN: not loom-opt %s --loom-pipeline="divergent=Masked" 2>&1 | FileCheck %s --check-prefix=CASE
// CASE: Cannot find option named 'Masked'!

// The passes take the same words.
// RUN: not loom-opt %s -loom-vmap=divergent=sideways 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not loom-opt %s -loom-localize-loops=loop-sync=sometimes 2>&1 | FileCheck %s --check-prefix=SYNC

module {}
