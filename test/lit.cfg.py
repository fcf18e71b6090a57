# -*- Python -*-
# lit configuration for Loom's regression tests.

import os
import platform

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "LOOM"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.loom_obj_root, "test")
config.excludes = ["CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "unit", "Inputs"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%loom_src", config.loom_src_root))
config.substitutions.append(("%loom_tools", config.loom_tools_dir))
config.substitutions.append(("%loom_obj", config.loom_obj_root))
config.substitutions.append(("%examples",
                             os.path.join(config.loom_src_root,
                                          "python-free-examples")))

# Captured names are scoped to a CHECK-LABEL block, so one function's %[[X]]
# cannot silently satisfy a check in the next.
config.environment["FILECHECK_OPTS"] = "--enable-var-scope"

llvm_config.use_default_substitutions()

# The sanitizers' options from CMake (cmake/modules/LoomSanitizers.cmake),
# then any the caller set, which win (under ctest, the caller's start with
# the same options). Set here rather than passed through: lit 19's own
# passthrough list drops ASAN_OPTIONS (a missing comma in lit/llvm/config.py).
for name, value in config.sanitizer_options.items():
    extra = os.environ.get(name, "")
    config.environment[name] = value if extra.startswith(value) else value + ":" + extra
if config.llvm_use_sanitizer:
    config.available_features.add("sanitizer")

# The MPI backend's tests (test/MPI): `%mpirun N cmd` runs N ranks, more than
# the cores if need be, as root too (CI runs as root), and never hangs.
if config.loom_enable_mpi.upper() in ("ON", "1", "TRUE") and config.mpiexec:
    config.available_features.add("mpi")
    for name in ("OMPI_ALLOW_RUN_AS_ROOT", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"):
        config.environment[name] = "1"
    mpiexec = "%s --oversubscribe" % config.mpiexec
    config.substitutions.append(("%mpirun", "timeout 60 %s -np" % mpiexec))
    config.substitutions.append(("%mpiexec", mpiexec))
    # What the runtime links besides libc, libm, libstdc++ and libgcc_s:
    # Open MPI and its own dependencies (test/tools/loom-exec/ldd.mlir).
    config.substitutions.append(
        ("%{mpi_libs}", "|mpi|open-rte|open-pal|hwloc|z|event_core-2\\.1|"
                        "event_pthreads-2\\.1|udev"))
else:
    config.available_features.add("no-mpi")
    config.substitutions.append(("%{mpi_libs}", ""))

# ldd, for the check that loom-exec needs only the C and C++ runtimes.
import shutil
if shutil.which("ldd"):
    config.available_features.add("ldd")

# Tests that check code generated for the host's vector unit.
if platform.machine() in ("x86_64", "AMD64"):
    config.available_features.add("x86_64")

# The CUDA toolkit the GPU tests use, found as loom-compile's --cuda-path
# default finds it ($CUDA_HOME, then /usr/local/cuda), and passed on so that
# both agree: `libdevice` when it has libdevice, `ptxas` when it has ptxas.
cuda_path = os.environ.get("CUDA_HOME") or "/usr/local/cuda"
# A loadable CUDA driver: the tests of the no-driver path need its absence.
try:
    import ctypes
    ctypes.CDLL("libcuda.so.1")
    config.available_features.add("cuda-driver")
except OSError:
    pass
if os.path.isfile(os.path.join(cuda_path, "lib64", "stubs", "libcuda.so")):
    config.available_features.add("cuda-stub")
    config.substitutions.append(("%cuda_stub", os.path.join(
        cuda_path, "lib64", "stubs", "libcuda.so")))
config.environment["CUDA_HOME"] = cuda_path
if os.path.isfile(os.path.join(cuda_path, "nvvm", "libdevice", "libdevice.10.bc")):
    config.available_features.add("libdevice")
ptxas = os.path.join(cuda_path, "bin", "ptxas")
if os.access(ptxas, os.X_OK):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))

# FileCheck, not and count live in LLVM's tool directory, which Debian does
# not put on PATH.
tool_dirs = [config.loom_tools_dir, config.llvm_tools_dir]
llvm_config.add_tool_substitutions(["loom-opt", "loom-run", "loom-compile", "loom-exec"],
                                   tool_dirs)
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.with_environment("PATH", config.loom_tools_dir, append_path=True)
