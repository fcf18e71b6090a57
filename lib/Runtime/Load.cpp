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
#include "loom/Runtime/GPUMesh.h"
#include "loom/Runtime/MPIMesh.h"
#include "loom/Runtime/ProgramABI.h"

#include <algorithm>
#if defined(__x86_64__) && defined(__GNUC__)
#include <cpuid.h>
#endif
#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <elf.h>
#include <fstream>
#include <iterator>
#include <mutex>
#include <vector>

// LoomRuntimeMPI defines it, and a program links that only if it wants MPI:
// this weak reference is null otherwise.
namespace loom {
[[gnu::weak]] Result<std::unique_ptr<Mesh>>
createMPIMesh(int64_t numShards, std::optional<int32_t> communicator);
} // namespace loom

using namespace loom;
using namespace loom::detail;

static_assert(sizeof(LoomProgramValue) == 64 && sizeof(LoomProgramLoop) == 24 &&
                  sizeof(LoomProgramVariant) == 24,
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

/// The x86 features LLVM names that the loader asks the CPU about. A
/// feature the table does not list is taken on trust.
struct Feature {
  const char *name;
  bool present;
};

#if defined(__x86_64__) && defined(__GNUC__)
/// Read from cpuid itself, as LLVM's host detection does, not through
/// __builtin_cpu_supports: clang's builtin reads libgcc's feature words with
/// its own bit layout, and reports some features (cx16) missing that the CPU
/// has. AVX and AVX-512 also need the OS to save their registers (XCR0).
std::vector<Feature> hostFeatures() {
  unsigned eax = 0, ebx = 0, ecx1 = 0, edx1 = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx1, &edx1))
    return {};
  unsigned ebx7 = 0, ecx7 = 0, edx7 = 0, eax71 = 0, unused = 0;
  if (__get_cpuid_max(0, nullptr) >= 7) {
    __cpuid_count(7, 0, eax, ebx7, ecx7, edx7);
    __cpuid_count(7, 1, eax71, unused, unused, unused);
  }
  unsigned ecxExt = 0, edxExt = 0;
  if (__get_cpuid_max(0x80000000, nullptr) >= 0x80000001)
    __cpuid(0x80000001, eax, ebx, ecxExt, edxExt);
  uint64_t xcr0 = 0;
  if (ecx1 & (1u << 27)) { // OSXSAVE
    unsigned lo = 0, hi = 0;
    __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    xcr0 = (uint64_t(hi) << 32) | lo;
  }
  bool avxOS = (xcr0 & 0x6) == 0x6;               // XMM and YMM state
  bool avx512OS = avxOS && (xcr0 & 0xe0) == 0xe0; // opmask, ZMM state
  bool amxOS = (xcr0 & 0x60000) == 0x60000;       // tile config and data
  auto bit = [](unsigned word, int n) { return ((word >> n) & 1) != 0; };
  return {
      {"cmov", bit(edx1, 15)},
      {"mmx", bit(edx1, 23)},
      {"sse", bit(edx1, 25)},
      {"sse2", bit(edx1, 26)},
      {"sse3", bit(ecx1, 0)},
      {"pclmul", bit(ecx1, 1)},
      {"ssse3", bit(ecx1, 9)},
      {"fma", avxOS && bit(ecx1, 12)},
      {"cx16", bit(ecx1, 13)},
      {"sse4.1", bit(ecx1, 19)},
      {"sse4.2", bit(ecx1, 20)},
      {"movbe", bit(ecx1, 22)},
      {"popcnt", bit(ecx1, 23)},
      {"aes", bit(ecx1, 25)},
      {"xsave", bit(ecx1, 26)},
      {"avx", avxOS && bit(ecx1, 28)},
      {"f16c", avxOS && bit(ecx1, 29)},
      {"bmi", bit(ebx7, 3)},
      {"avx2", avxOS && bit(ebx7, 5)},
      {"bmi2", bit(ebx7, 8)},
      {"avx512f", avx512OS && bit(ebx7, 16)},
      {"avx512dq", avx512OS && bit(ebx7, 17)},
      {"adx", bit(ebx7, 19)},
      {"avx512ifma", avx512OS && bit(ebx7, 21)},
      {"avx512cd", avx512OS && bit(ebx7, 28)},
      {"sha", bit(ebx7, 29)},
      {"avx512bw", avx512OS && bit(ebx7, 30)},
      {"avx512vl", avx512OS && bit(ebx7, 31)},
      {"avx512vbmi", avx512OS && bit(ecx7, 1)},
      {"avx512vbmi2", avx512OS && bit(ecx7, 6)},
      {"gfni", bit(ecx7, 8)},
      {"vpclmulqdq", avxOS && bit(ecx7, 10)},
      {"avx512vnni", avx512OS && bit(ecx7, 11)},
      {"avx512bitalg", avx512OS && bit(ecx7, 12)},
      {"avx512vpopcntdq", avx512OS && bit(ecx7, 14)},
      {"amx-bf16", amxOS && bit(edx7, 22)},
      {"avx512fp16", avx512OS && bit(edx7, 23)},
      {"amx-tile", amxOS && bit(edx7, 24)},
      {"amx-int8", amxOS && bit(edx7, 25)},
      {"avx512bf16", avx512OS && bit(eax71, 5)},
      {"lzcnt", bit(ecxExt, 5)},
      {"sse4a", bit(ecxExt, 6)},
      {"xop", avxOS && bit(ecxExt, 11)},
      {"fma4", avxOS && bit(ecxExt, 16)},
  };
}
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
Status readDescriptor(const LoomProgram &p, Executable::Impl &impl,
                      const LoadOptions &options) {
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
  auto text = [](const char *s) { return std::string(s ? s : ""); };
  for (int64_t i = 0; i < p.numLoops; ++i) {
    impl.loops.push_back({text(p.loops[i].location), p.loops[i].masked != 0,
                          p.loops[i].lanes, text(p.loops[i].variant)});
  }
  for (int64_t i = 0; i < p.numVariants; ++i)
    impl.variants.push_back({text(p.variants[i].location),
                             text(p.variants[i].primary),
                             text(p.variants[i].alternative)});
  if (Status s = impl.buildDefaults(); !s.ok())
    return s;
  // Where no GPU can run it, before anything calls it.
  if (std::strcmp(p.backend, "gpu") == 0)
    if (Status s = gpuAvailable(); !s.ok())
      return s;
  if (onMesh) {
    Result<std::unique_ptr<Mesh>> mesh = Status::error("");
    if (std::strcmp(p.backend, "cpu") == 0) {
      auto threads = ThreadMesh::create(p.numShards);
      mesh = threads ? Result<std::unique_ptr<Mesh>>(threads.take())
                     : threads.status();
    } else if (std::strcmp(p.backend, "gpu") == 0) {
      mesh = createGPUMesh(p.numShards);
    } else if (std::strcmp(p.backend, "mpi") == 0) {
      if (!&createMPIMesh)
        return Status::error(
            "it runs on backend 'mpi', and this program was not linked with "
            "Loom's MPI runtime (Loom::RuntimeMPI)");
      mesh = createMPIMesh(p.numShards, options.mpiCommunicator);
    } else {
      return Status::error(std::string("it runs on backend '") + p.backend +
                           "', which this runtime does not have");
    }
    if (!mesh)
      return mesh.status();
    impl.mesh = mesh.take();
  }
  impl.entry = p.entry;
  impl.resultLayout = layoutResults(impl.outputs);
  return Status::success();
}

} // namespace

Result<Executable> Executable::load(const std::string &path,
                                    const LoadOptions &options) {
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
  if (Status s = readDescriptor(*program, *impl, options); !s.ok())
    return fail(s.message());
  impl->program = std::move(library);
  impl->times.jit =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  return Impl::wrap(std::move(impl));
}
