//===- SolverResults.h - diffrax's result codes and messages ----*- C++ -*-===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// The per-lane `result` codes the diffrax programs in
// python-free-examples/diffrax/ return, with the message diffrax raises for
// each. A compiled call cannot raise, so the program returns the code and
// its caller raises (`loom-run --raise-on`); this is the one table both the
// programs' comments and the callers refer to.
//
//===----------------------------------------------------------------------===//

#ifndef LOOM_SUPPORT_SOLVERRESULTS_H
#define LOOM_SUPPORT_SOLVERRESULTS_H

#include <cstdint>

namespace loom {

struct SolverResult {
  int32_t code;
  const char *name;
  const char *message;
};

/// 0 is diffrax's `successful` and has no message.
inline constexpr SolverResult kSolverResults[] = {
    // diffrax.RESULTS.max_steps_reached.
    {1, "max_steps_reached",
     "The maximum number of solver steps was reached. Try increasing "
     "`max_steps`."},
    // Not a RESULTS member: diffeqsolve checks it before solving and raises
    // at once. The lane takes no step.
    {2, "dt0_wrong_sign", "Must have (t1 - t0) * dt0 >= 0"},
};

/// The entry for `code`, or null for 0 and for codes diffrax does not have.
inline const SolverResult *findSolverResult(int32_t code) {
  for (const SolverResult &r : kSolverResults)
    if (r.code == code)
      return &r;
  return nullptr;
}

} // namespace loom

#endif // LOOM_SUPPORT_SOLVERRESULTS_H
