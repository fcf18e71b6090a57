//===- Load.cpp - Loading an AOT-compiled program -------------------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// Executable::load: dlopen a library that `loom-compile` wrote, check its
// descriptor (loom/Runtime/ProgramABI.h) before trusting any of it, give it
// the runtime's entry points, and rebuild the Executable::Impl the JIT
// would have built, so the call path is the same. Every refusal is one line
// that names the file.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/ABI.h"
#include "loom/Runtime/ExecutableImpl.h"
#include "loom/Runtime/ProgramABI.h"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

using namespace loom;
using namespace loom::detail;

static_assert(sizeof(LoomProgramValue) == 64 && sizeof(LoomProgramLoop) == 16,
              "ProgramABI.h's layout is what lib/Compiler/CPU builds");

namespace {

/// Keeps the library loaded while the Executable lives.
class LoadedLibrary final : public LoadedProgram {
public:
  explicit LoadedLibrary(void *handle) : handle(handle) {}
  ~LoadedLibrary() override { dlclose(handle); }

private:
  void *handle;
};

/// The x86 features LLVM names that this compiler can ask the CPU about,
/// as LLVM and as __builtin_cpu_supports spell them. A feature the table
/// does not list is taken on trust.
struct Feature {
  const char *name;
  bool present;
};

#if defined(__x86_64__) && defined(__GNUC__)
#define LOOM_FEATURE(LLVM, GCC) {LLVM, __builtin_cpu_supports(GCC) != 0}
std::vector<Feature> hostFeatures() {
  __builtin_cpu_init();
  return {
      LOOM_FEATURE("cmov", "cmov"),
      LOOM_FEATURE("mmx", "mmx"),
      LOOM_FEATURE("popcnt", "popcnt"),
      LOOM_FEATURE("sse", "sse"),
      LOOM_FEATURE("sse2", "sse2"),
      LOOM_FEATURE("sse3", "sse3"),
      LOOM_FEATURE("ssse3", "ssse3"),
      LOOM_FEATURE("sse4.1", "sse4.1"),
      LOOM_FEATURE("sse4.2", "sse4.2"),
      LOOM_FEATURE("sse4a", "sse4a"),
      LOOM_FEATURE("avx", "avx"),
      LOOM_FEATURE("avx2", "avx2"),
      LOOM_FEATURE("fma", "fma"),
      LOOM_FEATURE("fma4", "fma4"),
      LOOM_FEATURE("xop", "xop"),
      LOOM_FEATURE("bmi", "bmi"),
      LOOM_FEATURE("bmi2", "bmi2"),
      LOOM_FEATURE("lzcnt", "lzcnt"),
      LOOM_FEATURE("movbe", "movbe"),
      LOOM_FEATURE("f16c", "f16c"),
      LOOM_FEATURE("aes", "aes"),
      LOOM_FEATURE("pclmul", "pclmul"),
      LOOM_FEATURE("cx16", "cmpxchg16b"),
      LOOM_FEATURE("adx", "adx"),
      LOOM_FEATURE("sha", "sha"),
      LOOM_FEATURE("xsave", "xsave"),
      LOOM_FEATURE("gfni", "gfni"),
      LOOM_FEATURE("vpclmulqdq", "vpclmulqdq"),
      LOOM_FEATURE("avx512f", "avx512f"),
      LOOM_FEATURE("avx512vl", "avx512vl"),
      LOOM_FEATURE("avx512bw", "avx512bw"),
      LOOM_FEATURE("avx512dq", "avx512dq"),
      LOOM_FEATURE("avx512cd", "avx512cd"),
      LOOM_FEATURE("avx512ifma", "avx512ifma"),
      LOOM_FEATURE("avx512vbmi", "avx512vbmi"),
      LOOM_FEATURE("avx512vbmi2", "avx512vbmi2"),
      LOOM_FEATURE("avx512vnni", "avx512vnni"),
      LOOM_FEATURE("avx512bitalg", "avx512bitalg"),
      LOOM_FEATURE("avx512vpopcntdq", "avx512vpopcntdq"),
      LOOM_FEATURE("avx512bf16", "avx512bf16"),
      LOOM_FEATURE("avx512fp16", "avx512fp16"),
      LOOM_FEATURE("amx-tile", "amx-tile"),
      LOOM_FEATURE("amx-int8", "amx-int8"),
      LOOM_FEATURE("amx-bf16", "amx-bf16"),
  };
}
#undef LOOM_FEATURE
#else
std::vector<Feature> hostFeatures() { return {}; }
#endif

/// The features in `list` ("+a,+b,-c") that this CPU lacks.
std::string missingFeatures(const std::string &list) {
  static const std::vector<Feature> host = hostFeatures();
  std::string missing;
  size_t begin = 0;
  while (begin < list.size()) {
    size_t end = list.find(',', begin);
    if (end == std::string::npos)
      end = list.size();
    std::string feature = list.substr(begin, end - begin);
    begin = end + 1;
    if (feature.size() < 2 || feature[0] != '+')
      continue;
    feature.erase(0, 1);
    for (const Feature &known : host)
      if (feature == known.name && !known.present)
        missing += (missing.empty() ? "" : ", ") + feature;
  }
  return missing;
}

/// What dlopen does not check: glibc maps a truncated library's segments
/// past the end of the file, and the first touch of them is a SIGBUS. So
/// the ELF header and every segment must lie inside the file first.
Status checkElf(const std::string &path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file)
    return Status::error("cannot open it");
  uint64_t size = static_cast<uint64_t>(file.tellg());
  Elf64_Ehdr header;
  file.seekg(0);
  if (size < sizeof(header) ||
      !file.read(reinterpret_cast<char *>(&header), sizeof(header)) ||
      std::memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 ||
      header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_type != ET_DYN)
    return Status::error("not a loadable library (not a 64-bit ELF shared "
                         "library)");
#if defined(__x86_64__)
  if (header.e_machine != EM_X86_64)
    return Status::error("not a loadable library (built for ELF machine " +
                         std::to_string(header.e_machine) + ", not x86-64)");
#endif
  uint64_t needed =
      header.e_phoff + uint64_t(header.e_phnum) * sizeof(Elf64_Phdr);
  if (header.e_phentsize != sizeof(Elf64_Phdr) || needed > size)
    return Status::error("not a loadable library (truncated: " +
                         std::to_string(size) + " bytes)");
  std::vector<Elf64_Phdr> segments(header.e_phnum);
  file.seekg(header.e_phoff);
  file.read(reinterpret_cast<char *>(segments.data()),
            segments.size() * sizeof(Elf64_Phdr));
  for (const Elf64_Phdr &segment : segments)
    needed = std::max<uint64_t>(needed, segment.p_offset + segment.p_filesz);
  if (!file || needed > size)
    return Status::error(
        "not a loadable library (truncated: " + std::to_string(size) +
        " bytes, its segments need " + std::to_string(needed) + ")");
  return Status::success();
}

/// The runtime's entry points, in RuntimeFunctions.def's order.
void *const kEntryPoints[] = {
#define LOOM_RT_FUNCTION(ID, NAME, RESULT, PARAMETERS)                         \
  reinterpret_cast<void *>(&NAME),
#include "loom/Runtime/RuntimeFunctions.def"
};

ValueInfo readValue(const LoomProgramValue &value) {
  ValueInfo info;
  info.name = value.name;
  info.dtype = static_cast<DType>(value.dtype);
  info.shape.assign(value.shape, value.shape + value.rank);
  if (value.hasDefault)
    info.defaultValue = value.defaultValue;
  if (value.hasRange)
    info.range = {value.rangeLo, value.rangeHi};
  return info;
}

/// Checks what can be checked of the rest of the descriptor: a library that
/// passes the version checks was written by this Loom, so this is for a
/// corrupted one.
Status checkDescriptor(const LoomProgram &p) {
  bool ok =
      p.entry && p.numShards >= 0 && p.numInputs >= 0 && p.numOutputs >= 0 &&
      p.numBatchAxes >= 0 && p.numLoops >= 0 &&
      (p.numInputs == 0 || p.inputs) && (p.numOutputs == 0 || p.outputs) &&
      p.numRuntimeFunctions == static_cast<int32_t>(std::size(kEntryPoints)) &&
      p.runtimeFunctions;
  for (int64_t i = 0; ok && i < p.numInputs + p.numOutputs; ++i) {
    const LoomProgramValue &v =
        i < p.numInputs ? p.inputs[i] : p.outputs[i - p.numInputs];
    ok = v.name && v.dtype >= 0 && v.dtype <= static_cast<int>(DType::I1) &&
         v.rank >= 0 && (v.rank == 0 || v.shape);
  }
  for (int64_t i = 0; ok && i < p.numBatchAxes; ++i)
    ok = p.batchAxes[i].input >= 0 && p.batchAxes[i].input < p.numInputs &&
         p.batchAxes[i].axis >= 0 &&
         p.batchAxes[i].axis < p.inputs[p.batchAxes[i].input].rank &&
         p.batchAxes[i].group >= 0 && p.batchAxes[i].group < p.numBatchAxes;
  if (!ok)
    return Status::error("its program descriptor is corrupt");
  return Status::success();
}

/// Rebuilds what describeEntry and describeMesh read from the module.
Status readDescriptor(const LoomProgram &p, Executable::Impl &impl) {
  bool onMesh = p.numShards > 0;
  for (int64_t i = 0; i < p.numInputs; ++i) {
    impl.inputs.push_back(readValue(p.inputs[i]));
    if (onMesh)
      impl.inputSplit.push_back(p.inputs[i].split != 0);
  }
  for (int64_t i = 0; i < p.numOutputs; ++i) {
    impl.outputs.push_back(readValue(p.outputs[i]));
    if (onMesh)
      impl.outputSplit.push_back(p.outputs[i].split != 0);
  }
  for (int64_t i = 0; i < p.numBatchAxes; ++i) {
    const LoomProgramBatchAxis &axis = p.batchAxes[i];
    if (static_cast<size_t>(axis.group) >= impl.batchGroups.size())
      impl.batchGroups.resize(axis.group + 1);
    impl.batchGroups[axis.group].emplace_back(axis.input, axis.axis);
  }
  impl.countsLoops = p.counters != 0;
  for (int64_t i = 0; i < p.numLoops; ++i)
    impl.loops.emplace_back(p.loops[i].location ? p.loops[i].location : "",
                            p.loops[i].masked != 0);
  if (Status s = impl.buildDefaults(); !s.ok())
    return s;
  if (onMesh) {
    // The only backend so far; the descriptor names it for the next.
    if (std::strcmp(p.backend, "cpu") != 0)
      return Status::error(std::string("it runs on backend '") + p.backend +
                           "', which this runtime does not have");
    auto mesh = ThreadMesh::create(p.numShards);
    if (!mesh)
      return mesh.status();
    impl.mesh = mesh.take();
  }
  impl.entry = p.entry;
  impl.resultLayout = layoutResults(impl.outputs);
  return Status::success();
}

} // namespace

Result<Executable> Executable::load(const std::string &path) {
  auto start = std::chrono::steady_clock::now();
  auto fail = [&](const std::string &why) {
    return Status::error(path + ": " + why);
  };
  // dlopen would look a bare name up in the library path, not here.
  std::string file = path.find('/') == std::string::npos ? "./" + path : path;
  if (Status s = checkElf(file); !s.ok())
    return fail(s.message());
  void *handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char *error = dlerror();
    std::string why = error ? error : "unknown error";
    // dlerror starts with the path it was given: say it once.
    if (why.rfind(file + ": ", 0) == 0)
      why.erase(0, file.size() + 2);
    return fail("not a loadable library (" + why + ")");
  }
  auto library = std::make_unique<LoadedLibrary>(handle);
  auto *program =
      static_cast<LoomProgram *>(dlsym(handle, LOOM_PROGRAM_SYMBOL));
  if (!program)
    return fail("not a Loom program (it has no " LOOM_PROGRAM_SYMBOL ")");
  if (program->magic != LOOM_PROGRAM_MAGIC)
    return fail("not a Loom program (bad magic number)");
  if (program->abiVersion != LOOM_PROGRAM_ABI_VERSION)
    return fail("compiled for Loom program ABI version " +
                std::to_string(program->abiVersion) + ", but this runtime " +
                "loads version " + std::to_string(LOOM_PROGRAM_ABI_VERSION));
  if (!program->loomVersion ||
      std::strcmp(program->loomVersion, LOOM_VERSION) != 0)
    return fail(std::string("compiled by Loom ") +
                (program->loomVersion ? program->loomVersion : "?") +
                ", but this is Loom " LOOM_VERSION);
  std::string missing =
      missingFeatures(program->targetFeatures ? program->targetFeatures : "");
  if (!missing.empty())
    return fail(std::string("compiled for CPU '") +
                (program->targetCPU ? program->targetCPU : "?") +
                "', but this CPU lacks " + missing);
  if (Status s = checkDescriptor(*program); !s.ok())
    return fail(s.message());

  // Every load of one library shares its table. Only the first writes it,
  // before anything calls through it: a later load, while calls of the
  // first run, only reads.
  static std::mutex tableMutex;
  {
    std::lock_guard<std::mutex> lock(tableMutex);
    for (size_t i = 0; i < std::size(kEntryPoints); ++i)
      if (program->runtimeFunctions[i] != kEntryPoints[i])
        program->runtimeFunctions[i] = kEntryPoints[i];
  }
  auto impl = std::make_shared<Executable::Impl>();
  if (Status s = readDescriptor(*program, *impl); !s.ok())
    return fail(s.message());
  impl->program = std::move(library);
  impl->times.jit =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return Impl::wrap(std::move(impl));
}
