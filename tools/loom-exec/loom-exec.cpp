//===- loom-exec.cpp - Run an AOT-compiled Loom program -------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
//   loom-exec PROG.so --input NAME=SPEC ... [--output-dir DIR] [--repeat N]
//             [--time] [--stats] [--raise-on NAME]
//
// loom-run's runner for a library loom-compile wrote, printing exactly what
// loom-run prints. It links only the runtime: no LLVM, no MLIR, not even
// libfmt (header-only), so it runs where none of them is installed; hence
// its own small argument parser rather than llvm::cl.
//
//===----------------------------------------------------------------------===//

#include "RunTool.h"

#include "loom/Loom.h"

#include <cstdio>
#include <cstring>
#include <string>

using namespace loom;

static constexpr const char *kTool = "loom-exec";

static constexpr const char *kHelp =
    "OVERVIEW: Loom AOT runner: load a library loom-compile wrote and run "
    "its entry on .npy or generated inputs\n\n"
    "USAGE: loom-exec <program.so> [options]\n\n"
    "OPTIONS:\n"
    "  --input NAME=SPEC   an argument (by name or position) from a .npy "
    "file, fill:VALUE:SHAPExDTYPE, jax-split:SEED:COUNT[:INDEX] or "
    "jax-split-partitionable:SEED:COUNT[:INDEX]\n"
    "  --output-dir DIR    write each result to DIR/NAME.npy\n"
    "  --repeat N          call the entry N times\n"
    "  --time              print load time and call times\n"
    "  --stats             print the loop counters (needs a library compiled "
    "with --counters)\n"
    "  --raise-on NAME     fail, naming the lanes, if the integer result NAME "
    "is nonzero anywhere; nothing is written\n";

namespace {

/// Parses argv as llvm::cl would for these options: `--name VALUE`,
/// `--name=VALUE`, one or two dashes; each but --input at most once.
class Arguments {
public:
  Status parse(int argc, char **argv, tools::RunOptions &run) {
    int seen[5] = {};
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg.size() < 2 || arg[0] != '-') {
        if (!run.program.empty())
          return Status::error("more than one program given ('" + run.program +
                               "' and '" + arg + "')");
        run.program = arg;
        continue;
      }
      std::string name = arg.substr(arg[1] == '-' ? 2 : 1), value;
      size_t eq = name.find('=');
      bool hasValue = eq != std::string::npos;
      if (hasValue) {
        value = name.substr(eq + 1);
        name.erase(eq);
      }
      static const char *const flags[] = {"output-dir", "repeat", "time",
                                          "stats", "raise-on"};
      int which = -1;
      for (int k = 0; k < 5; ++k)
        if (name == flags[k])
          which = k;
      if (name == "help" || name == "h")
        return Status::error("help");
      if (name != "input" && which < 0)
        return Status::error("unknown option '" + arg + "'");
      if (which >= 0 && seen[which]++)
        return Status::error("--" + name + " is given more than once");
      if (name == "time" || name == "stats") {
        if (hasValue)
          return Status::error("--" + name + " takes no value");
        (name == "time" ? run.time : run.stats) = true;
        continue;
      }
      if (!hasValue) {
        if (i + 1 == argc)
          return Status::error("--" + name + " needs a value");
        value = argv[++i];
      }
      if (value.empty() && name != "input")
        return Status::error("--" + name + " needs a value, got ''");
      if (name == "input")
        run.inputs.push_back(value);
      else if (name == "output-dir")
        run.outputDir = value;
      else if (name == "raise-on")
        run.raiseOn = value;
      else if (Status s = parseRepeat(value, run.repeat); !s.ok())
        return s;
    }
    if (run.program.empty())
      return Status::error("no program given (see --help)");
    return Status::success();
  }

private:
  static Status parseRepeat(const std::string &value, unsigned &repeat) {
    if (value.empty() || value.size() > 9 ||
        value.find_first_not_of("0123456789") != std::string::npos)
      return Status::error("--repeat takes a number, got '" + value + "'");
    repeat = static_cast<unsigned>(std::stoul(value));
    return Status::success();
  }
};

} // namespace

int main(int argc, char **argv) {
  tools::RunOptions run;
  if (Status s = Arguments().parse(argc, argv, run); !s.ok()) {
    if (s.message() == "help") {
      std::fputs(kHelp, stdout);
      return 0;
    }
    return tools::fail(kTool, s.message());
  }
  if (Status s = tools::checkRunOptions(run); !s.ok())
    return tools::fail(kTool, s.message());
  auto exe = Executable::load(run.program);
  if (!exe)
    return tools::fail(kTool, exe.message());
  return tools::runAndReport(kTool, *exe, run);
}
