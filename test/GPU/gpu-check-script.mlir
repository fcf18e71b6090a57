// scripts/gpu-check.sh's checker and its paths that need no GPU.
// The checker: the same bits pass; one ulp fails `exact` and passes `ulp`;
// an integer that differs fails both.
// RUN: rm -rf %t && mkdir -p %t/ref %t/same %t/ulp %t/int
// RUN: %python %S/Inputs/write_npy.py %t/ref/y.npy f4 1.0 2.0
// RUN: %python %S/Inputs/write_npy.py %t/same/y.npy f4 1.0 2.0
// RUN: %python %S/Inputs/write_npy.py %t/ulp/y.npy f4 1.0 2.0000002
// RUN: %python %S/../../scripts/gpu_check.py compare %t/ref %t/same exact | FileCheck %s --check-prefix=SAME
// RUN: not %python %S/../../scripts/gpu_check.py compare %t/ref %t/ulp exact | FileCheck %s --check-prefix=EXACT
// RUN: %python %S/../../scripts/gpu_check.py compare %t/ref %t/ulp ulp | FileCheck %s --check-prefix=ULP
// RUN: not %python %S/../../scripts/gpu_check.py compare %t/ref %t/int ulp | FileCheck %s --check-prefix=MISSING
// RUN: %python %S/Inputs/write_npy.py %t/ref/n.npy i4 3 4
// RUN: %python %S/Inputs/write_npy.py %t/same/n.npy i4 3 5
// RUN: not %python %S/../../scripts/gpu_check.py compare %t/ref %t/same ulp | FileCheck %s --check-prefix=INT
// SAME: max_ulp=0 ok
// EXACT: y.npy: 1 of 2 values differ (max 1 ulp), and this program is correctly rounded on both sides
// EXACT: max_ulp=1 FAILED
// ULP: max_ulp=1 ok
// MISSING: y.npy: missing from the GPU's outputs
// INT: n.npy: 1 of 2 integers differ
//
// No bundle: a clear error and exit 2.
// RUN: env OUT=%t/out sh -c '%S/../../scripts/gpu-check.sh %t/no-bundle; echo rc=$?' > %t/rc 2> %t/err
// RUN: FileCheck %s --check-prefix=BUNDLE < %t/err
// RUN: FileCheck %s --check-prefix=RC2 < %t/rc
// RC2: rc=2
// BUNDLE: gpu-check: no bundle at {{.*}}no-bundle: run scripts/gpu-check-build.sh where Loom builds, and carry it
