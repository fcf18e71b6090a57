//===- FakeCUDA.h - What the fake CUDA driver counts ------------*- C++ -*-===//
//-*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The state FakeCUDA.cpp keeps and the test reads back through the library's
// `fake_cuda_state()` (looked up with dlsym: the test does not link it).
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_TEST_UNIT_RUNTIME_FAKECUDA_H
#define LOOM_TEST_UNIT_RUNTIME_FAKECUDA_H

extern "C" {

struct FakeCUDAState {
  int devices = 1;
  int retains = 0, moduleLoads = 0, streams = 0, allocs = 0, launches = 0;
  int copiesIn = 0, copiesOut = 0;
  unsigned lastGrid = 0, lastBlock = 0;
  int launchResult = 0;
  char lastKernel[64] = {0};
};

} // extern "C"

#endif // LOOM_TEST_UNIT_RUNTIME_FAKECUDA_H
