# Thin wrappers over MLIR's CMake helpers, in the manner of CIRCT's
# AddCIRCT.cmake: one place to change how every Loom library is built.

include(GNUInstallDirs)

# Installs a library into one of Loom's export sets: LoomRuntimeTargets
# (plain C++, Loom::Runtime) or LoomTargets (needs MLIR, Loom::Loom).
# cmake/modules/CMakeLists.txt installs both sets and LoomConfig.cmake.
function(add_loom_library_install name export_set)
  install(TARGETS ${name}
    EXPORT ${export_set}
    COMPONENT ${name}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # The installed headers, and the C++ they are written in.
  target_include_directories(${name} INTERFACE
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_compile_features(${name} INTERFACE cxx_std_17)
endfunction()

# DISABLE_INSTALL keeps upstream's rules out: they would export into
# MLIRTargets, which Loom does not install. Loom's own set replaces them.

# A dialect library (ODS-generated ops, attributes, enums).
function(add_loom_dialect_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  add_loom_library_install(${name} LoomTargets)
endfunction()

# Every other library (analyses, transforms, conversions, the API).
function(add_loom_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
  add_loom_library_install(${name} LoomTargets)
endfunction()

# Generates dialect, op and pass documentation into docs/generated/ under the
# build tree; `loom-doc` collects them.
function(add_loom_doc td_filename output_file command)
  set(LLVM_TARGET_DEFINITIONS ${td_filename}.td)
  tablegen(MLIR ${output_file}.md ${command} ${ARGN})
  set(GEN_DOC_FILE ${LOOM_BINARY_DIR}/docs/generated/${output_file}.md)
  add_custom_command(
    OUTPUT ${GEN_DOC_FILE}
    COMMAND ${CMAKE_COMMAND} -E copy
            ${CMAKE_CURRENT_BINARY_DIR}/${output_file}.md ${GEN_DOC_FILE}
    DEPENDS ${CMAKE_CURRENT_BINARY_DIR}/${output_file}.md)
  add_custom_target(${output_file}DocGen DEPENDS ${GEN_DOC_FILE})
  add_dependencies(loom-doc ${output_file}DocGen)
endfunction()
