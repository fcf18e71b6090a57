//===- loom-npy-fuzzer.cpp - libFuzzer target: the .npy reader ------------===//
//
// Part of the Loom project.
//
//===----------------------------------------------------------------------===//
//
// readNpy on arbitrary bytes. The reader takes a path, as loom-run gives it
// one, so each input is written to an in-memory file (memfd) and read back
// through /proc/self/fd: the file-size checks run on the real size. A
// malformed file must be an error; an accepted one must hold exactly as
// many bytes as its shape and dtype say.
//
//===----------------------------------------------------------------------===//

#include "loom/Runtime/Npy.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

static int fd = -1;
static std::string path;

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  fd = memfd_create("loom-npy-fuzzer", 0);
  if (fd < 0) {
    std::perror("loom-npy-fuzzer: memfd_create");
    std::abort();
  }
  path = "/proc/self/fd/" + std::to_string(fd);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (ftruncate(fd, 0) != 0 || pwrite(fd, data, size, 0) != (ssize_t)size) {
    std::perror("loom-npy-fuzzer: cannot write the input");
    std::abort();
  }
  loom::Result<loom::HostBuffer> buffer = loom::readNpy(path);
  if (!buffer)
    return 0;
  // The data follows the header, so an accepted buffer is never larger
  // than the file it came from.
  if (buffer->byteSize() > size) {
    std::fprintf(stderr,
                 "loom-npy-fuzzer: %zu data bytes from a %zu-byte "
                 "file\n",
                 static_cast<size_t>(buffer->byteSize()), size);
    std::abort();
  }
  return 0;
}
