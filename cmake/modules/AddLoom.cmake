# Thin wrappers over MLIR's CMake helpers, in the manner of CIRCT's
# AddCIRCT.cmake: one place to change how every Loom library is built.

# A dialect library (ODS-generated ops, attributes, enums).
function(add_loom_dialect_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
endfunction()

# Every other library (analyses, transforms, conversions, the API).
function(add_loom_library name)
  add_mlir_library(${ARGV} DISABLE_INSTALL)
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
