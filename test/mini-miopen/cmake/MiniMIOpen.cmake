# Build helpers of the mini MIOpen test bed.
#
#   mini_miopen_add_library(<target> SOURCE_ROOT <dir> | CHECKED_IN
#                           OUTPUT_DIR <dir> [VERSION_NODE <node>] [OUTPUT_NAME <name>])
#
# Builds libMIOpen.so.<VERSION> (OUTPUT_NAME MIOpen unless given, SOVERSION 1) into
# OUTPUT_DIR from the checked-in sources (CHECKED_IN: src/ and every op
# folder's src/, MINI_MIOPEN_SOURCE_PATHS) or from SOURCE_ROOT, a merged copy
# of them (mini_miopen_merge_sources below; a renamed copy of that) with the
# same relative file names (the files may be generated at build time: nothing
# under SOURCE_ROOT is globbed, the list is MINI_MIOPEN_SOURCE_FILES). Linked like MIOpen: default visibility, a
# generated version script (`<node> { global: miopen*; local: *; };`, node
# MIOPEN_HIP_1 by default) and -Wl,--exclude-libs,ALL.
#
# Needs MINI_MIOPEN_SOURCE_FILES, MINI_MIOPEN_SOURCE_PATHS, MINI_MIOPEN_SOURCE_ROOTS, MINI_MIOPEN_GENERATED_INCLUDE_DIR,
# MINI_MIOPEN_PUBLIC_INCLUDE_DIR, MINI_MIOPEN_HIP_STANDIN_DIR and
# MINI_MIOPEN_VERSION, which test/mini-miopen/CMakeLists.txt sets as
# internal cache entries.
function(mini_miopen_add_library target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "CHECKED_IN" "SOURCE_ROOT;OUTPUT_DIR;VERSION_NODE;OUTPUT_NAME" "")
  if(NOT (ARG_SOURCE_ROOT OR ARG_CHECKED_IN) OR NOT ARG_OUTPUT_DIR)
    message(FATAL_ERROR "mini_miopen_add_library: SOURCE_ROOT or CHECKED_IN, and OUTPUT_DIR are required")
  endif()
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "mini_miopen_add_library: unknown arguments ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_VERSION_NODE)
    set(ARG_VERSION_NODE MIOPEN_HIP_1)
  endif()
  if(NOT ARG_OUTPUT_NAME)
    set(ARG_OUTPUT_NAME MIOpen)
  endif()

  if(ARG_CHECKED_IN)
    set(sources ${MINI_MIOPEN_SOURCE_PATHS})
    list(TRANSFORM MINI_MIOPEN_SOURCE_ROOTS APPEND /include OUTPUT_VARIABLE internal_includes)
  else()
    list(TRANSFORM MINI_MIOPEN_SOURCE_FILES PREPEND ${ARG_SOURCE_ROOT}/ OUTPUT_VARIABLE sources)
    set(internal_includes ${ARG_SOURCE_ROOT}/include)
  endif()

  # lib.def-style version script, as MIOpen writes one at configure time.
  set(def ${CMAKE_CURRENT_BINARY_DIR}/${target}.lib.def)
  file(WRITE ${def} "${ARG_VERSION_NODE}\n{\nglobal:\n    miopen*;\nlocal:\n    *;\n};\n")

  add_library(${target} SHARED ${sources})
  target_include_directories(${target} PRIVATE
    ${internal_includes}
    ${MINI_MIOPEN_PUBLIC_INCLUDE_DIR}
    ${MINI_MIOPEN_GENERATED_INCLUDE_DIR}
    ${MINI_MIOPEN_HIP_STANDIN_DIR})
  target_include_directories(${target} INTERFACE
    $<BUILD_INTERFACE:${MINI_MIOPEN_PUBLIC_INCLUDE_DIR}>
    $<BUILD_INTERFACE:${MINI_MIOPEN_GENERATED_INCLUDE_DIR}>
    $<BUILD_INTERFACE:${MINI_MIOPEN_HIP_STANDIN_DIR}>)
  # The library itself is built with the beta API visible, like MIOpen.
  target_compile_definitions(${target} PRIVATE MIOPEN_BETA_API=1)
  target_compile_features(${target} PRIVATE cxx_std_17)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    # -Wno-attributes: `MIOPEN_EXPORT extern "C"` (the attribute before the
    # linkage specification, as in MIOpen's sources) is ignored with a
    # warning by GCC; exports come from the version script anyway.
    target_compile_options(${target} PRIVATE -Wall -Wextra -Wno-attributes)
  endif()
  # Under the sanitizer build: MIOpen's C API takes its enums (an algorithm,
  # a mode) from a C caller, who may pass any int; MIOpen, and this test bed
  # after it, loads the value and then rejects it (e.g. an algorithm of 99 in
  # miopenConvolutionForward). C++ makes that load undefined and UBSan's
  # `enum` check reports it, which would stop every parity case that passes
  # an invalid enum on purpose. The wrapper reads these arguments as integers
  # (bindgen constants), so the check stays on for it and everything else.
  target_compile_options(${target} PRIVATE ${MIOPEN_WRAP_SANITIZE_MIOPEN_C_FLAGS})
  # MIOpen's default allocator calls HIP's hipMalloc / hipFree (the stand-in).
  target_link_libraries(${target} PRIVATE mini_hip_runtime)
  target_link_options(${target} PRIVATE
    "LINKER:--version-script=${def}"
    "LINKER:--exclude-libs,ALL")
  set_target_properties(${target} PROPERTIES
    OUTPUT_NAME ${ARG_OUTPUT_NAME}
    VERSION ${MINI_MIOPEN_VERSION}
    SOVERSION 1
    VISIBILITY_INLINES_HIDDEN ON
    LINK_DEPENDS ${def}
    LIBRARY_OUTPUT_DIRECTORY ${ARG_OUTPUT_DIR}
    # Installed next to the HIP stand-in, as MIOpen next to libamdhip64.
    INSTALL_RPATH "$ORIGIN")
endfunction()

#   mini_miopen_merge_sources(<target> <dir>)
#
# <target> copies src/ and every op folder's src/ into <dir>, one tree of
# MIOpen's src/ layout (what `miopen-wrap rename` takes, as a real tree's
# src/). Outputs: <dir>/<f> for every MINI_MIOPEN_SOURCE_FILES.
function(mini_miopen_merge_sources target dir)
  list(TRANSFORM MINI_MIOPEN_SOURCE_FILES PREPEND ${dir}/ OUTPUT_VARIABLE merged)
  set(copies)
  foreach(root IN LISTS MINI_MIOPEN_SOURCE_ROOTS)
    list(APPEND copies COMMAND ${CMAKE_COMMAND} -E copy_directory ${root} ${dir})
  endforeach()
  add_custom_command(OUTPUT ${merged}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${dir}
    ${copies}
    DEPENDS ${MINI_MIOPEN_SOURCE_PATHS}
    COMMENT "mini MIOpen: src/ and ops/*/src/ merged into ${dir}"
    VERBATIM)
  add_custom_target(${target} DEPENDS ${merged})
endfunction()
