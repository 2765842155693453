# Build helpers of the mini MIOpen test bed.
#
#   mini_miopen_add_library(<target> SOURCE_ROOT <dir> OUTPUT_DIR <dir>
#                           [VERSION_NODE <node>] [OUTPUT_NAME <name>])
#
# Builds libMIOpen.so.<VERSION> (OUTPUT_NAME MIOpen unless given, SOVERSION 1) into
# OUTPUT_DIR from SOURCE_ROOT, which is either the checked-in src/ directory
# or a renamed copy of it with the same relative file names (the files may be
# generated at build time: nothing under SOURCE_ROOT is globbed, the list is
# MINI_MIOPEN_SOURCE_FILES). Linked like MIOpen: default visibility, a
# generated version script (`<node> { global: miopen*; local: *; };`, node
# MIOPEN_HIP_1 by default) and -Wl,--exclude-libs,ALL.
#
# Needs MINI_MIOPEN_SOURCE_FILES, MINI_MIOPEN_GENERATED_INCLUDE_DIR,
# MINI_MIOPEN_PUBLIC_INCLUDE_DIR, MINI_MIOPEN_HIP_STANDIN_DIR and
# MINI_MIOPEN_VERSION, which test/mini-miopen/CMakeLists.txt sets as
# internal cache entries.
function(mini_miopen_add_library target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "SOURCE_ROOT;OUTPUT_DIR;VERSION_NODE;OUTPUT_NAME" "")
  if(NOT ARG_SOURCE_ROOT OR NOT ARG_OUTPUT_DIR)
    message(FATAL_ERROR "mini_miopen_add_library: SOURCE_ROOT and OUTPUT_DIR are required")
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

  set(sources)
  foreach(f IN LISTS MINI_MIOPEN_SOURCE_FILES)
    list(APPEND sources ${ARG_SOURCE_ROOT}/${f})
  endforeach()

  # lib.def-style version script, as MIOpen writes one at configure time.
  set(def ${CMAKE_CURRENT_BINARY_DIR}/${target}.lib.def)
  file(WRITE ${def} "${ARG_VERSION_NODE}\n{\nglobal:\n    miopen*;\nlocal:\n    *;\n};\n")

  add_library(${target} SHARED ${sources})
  target_include_directories(${target} PRIVATE
    ${ARG_SOURCE_ROOT}/include
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
