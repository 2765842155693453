# MIOpenWrapAdopt.cmake -- included by a MIOpen src/CMakeLists.txt that
# `miopen-wrap adopt` edited (src_patches/cmake-edits.toml). It brings in this repository's
# pieces and provides the two commands the edited MIOpen CMake calls:
#
#   miopen_wrap_private_export_header(<private-target>)
#       <miopen/export.h> for the implementation library after its target was
#       renamed: same file, same MIOPEN_EXPORT macros, same export define
#       (MIOpen_EXPORTS) as before the rename.
#
#   miopen_wrap_adopt_wrapper(WRAPPER_TARGET MIOpen PRIVATE_TARGET MIOpen_private)
#       MIOPEN_ENABLE_HIPDNN_WRAPPER=ON (the default): creates the wrapper
#       library (libMIOpen.so, the Rust pass-through of RFC 0001) with
#       miopen_wrap_add_wrapper(), taking VERSION/SOVERSION from the private
#       library (i.e. what libMIOpen.so had before), and installs
#       miopen_impl.h under include/miopen_private.
#       OFF: no wrapper and no Rust: the private target is built as the one
#       libMIOpen.so, its entry points compiled under their public names
#       (miopen_wrap_public_names.h, force-included, undoes the rename in
#       the preprocessor), and MIOpen becomes an INTERFACE target linking it,
#       so everything that links MIOpen links that library as before.
#
# Cache variables:
#   MIOPEN_ENABLE_HIPDNN_WRAPPER  ON: the pair; OFF: one libMIOpen.so as before
#                             the adoption (the option TheRock passes, named as
#                             upstream MIOpen names it)
#   MIOPEN_WRAP_SOURCE_DIR    this repository (set by the edit; override with -D):
#                             the runtime crate and the CMake modules
#   MIOPEN_WRAP_EXECUTABLE    an installed miopen-wrap (`cmake --install` of this
#                             repository puts it in <prefix>/bin); empty: found on
#                             PATH, else built from MIOPEN_WRAP_SOURCE_DIR
#   MIOPEN_WRAP_CORROSION_HINT  a prefix holding Corrosion when not on CMAKE_PREFIX_PATH
#   MIOPEN_WRAP_VERSION_NODE  version node of the public exports
#                             (default MIOPEN_${MIOPEN_BACKEND}_1, as MIOpen's lib.def)
#   MIOPEN_WRAP_RELEASE_VERSION  release stamped into both libraries for the
#                             co-versioning gate (default: PROJECT_VERSION, the
#                             version MIOpen's rocm_setup_version() sets)
#   MIOPEN_WRAP_RENAME_REPORT `miopen-wrap rename --report` JSON of the adopted
#                             tree (default: <tree>/cmake/miopen-wrap-rename-report.json
#                             when present); its survivors get wrapper stubs
include_guard(GLOBAL)

if(NOT EXISTS "${MIOPEN_WRAP_SOURCE_DIR}/cmake/MIOpenHipdnnWrapper.cmake")
  message(FATAL_ERROR "MIOPEN_WRAP_SOURCE_DIR='${MIOPEN_WRAP_SOURCE_DIR}' is not the "
    "miopen-hipdnn wrapper repository (no cmake/MIOpenHipdnnWrapper.cmake); "
    "configure with -DMIOPEN_WRAP_SOURCE_DIR=<repo>")
endif()

option(MIOPEN_ENABLE_HIPDNN_WRAPPER
  "libMIOpen.so as the hipDNN forwarding wrapper over libMIOpen_private.so (ON), or one libMIOpen.so as before the adoption (OFF)"
  ON)

# --- the runtime crate (built with this tree's stubs) and the tool ------------
if(MIOPEN_ENABLE_HIPDNN_WRAPPER)
  include(${MIOPEN_WRAP_SOURCE_DIR}/cmake/MIOpenHipdnnWrapper.cmake)
  miopen_wrap_import_runtime(MANIFEST_PATH ${MIOPEN_WRAP_SOURCE_DIR}/Cargo.toml)
  if(NOT MIOPEN_WRAP_EXECUTABLE AND NOT TARGET miopen-wrap)
    find_program(_miopen_wrap_on_path miopen-wrap)
    if(_miopen_wrap_on_path)
      set(MIOPEN_WRAP_EXECUTABLE ${_miopen_wrap_on_path} CACHE FILEPATH "An installed miopen-wrap" FORCE)
    else()
      # No installed tool: build it from the repository.
      miopen_wrap_import_tool(MANIFEST_PATH ${MIOPEN_WRAP_SOURCE_DIR}/Cargo.toml)
    endif()
  endif()
endif()
include(${MIOPEN_WRAP_SOURCE_DIR}/cmake/MIOpenWrapInstall.cmake)
include(GenerateExportHeader)

set(MIOPEN_WRAP_VERSION_NODE "" CACHE STRING
  "Version node of libMIOpen.so's exports (empty: MIOPEN_<backend>_1)")
set(MIOPEN_WRAP_RELEASE_VERSION "" CACHE STRING
  "MIOpen release stamped into both libraries (empty: PROJECT_VERSION)")
set(MIOPEN_WRAP_RENAME_REPORT "" CACHE FILEPATH
  "Rename report of the adopted tree (empty: <tree>/cmake/miopen-wrap-rename-report.json if present)")

function(miopen_wrap_private_export_header target)
  # The header's export/import switch stays MIOpen_EXPORTS, the define the
  # library compiled with before its target was renamed.
  set_target_properties(${target} PROPERTIES DEFINE_SYMBOL MIOpen_EXPORTS)
  set(file ${CMAKE_BINARY_DIR}/include/miopen/export.h)
  generate_export_header(${target} BASE_NAME MIOpen EXPORT_FILE_NAME ${file})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>)
  _miopen_wrap_install_file(${file} include/miopen)
endfunction()

# The rename report of the adopted tree (empty when there is none).
function(_miopen_wrap_rename_report out)
  set(report "${MIOPEN_WRAP_RENAME_REPORT}")
  if(NOT report AND EXISTS ${PROJECT_SOURCE_DIR}/cmake/miopen-wrap-rename-report.json)
    set(report ${PROJECT_SOURCE_DIR}/cmake/miopen-wrap-rename-report.json)
  endif()
  set(${out} "${report}" PARENT_SCOPE)
endfunction()

# Every JSON array element's member `key`: `out` = list of values.
function(_miopen_wrap_json_members json array key out)
  set(values)
  string(JSON n LENGTH "${json}" ${array})
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON v GET "${json}" ${array} ${i} ${key})
      list(APPEND values "${v}")
    endforeach()
  endif()
  set(${out} "${values}" PARENT_SCOPE)
endfunction()

# The sources (under src/) that define the survivors the forwarding handlers
# call (src_patches/survivor-calls.json), from the rename report.
function(_miopen_wrap_survivor_call_sources report out)
  file(READ ${MIOPEN_WRAP_SOURCE_DIR}/src_patches/survivor-calls.json calls_json)
  _miopen_wrap_json_members("${calls_json}" calls name calls)
  file(READ ${report} report_json)
  _miopen_wrap_json_members("${report_json}" survivors name names)
  _miopen_wrap_json_members("${report_json}" survivors file files)
  set(sources)
  foreach(call IN LISTS calls)
    list(FIND names ${call} i)
    if(i LESS 0)
      message(FATAL_ERROR "miopen-hipdnn wrapper: the forwarding handlers call ${call} "
        "(src_patches/survivor-calls.json), which ${report} does not list as a survivor of this tree")
    endif()
    list(GET files ${i} file)
    list(APPEND sources ${PROJECT_SOURCE_DIR}/src/${file})
  endforeach()
  list(REMOVE_DUPLICATES sources)
  set(${out} "${sources}" PARENT_SCOPE)
endfunction()

# MIOPEN_ENABLE_HIPDNN_WRAPPER=OFF: the private target is libMIOpen.so with
# the public names, and MIOpen an INTERFACE target on it.
function(_miopen_wrap_single_library public private)
  _miopen_wrap_rename_report(report)
  if(NOT report)
    message(FATAL_ERROR "MIOPEN_ENABLE_HIPDNN_WRAPPER=OFF needs the rename report of the adopted tree "
      "(${PROJECT_SOURCE_DIR}/cmake/miopen-wrap-rename-report.json, written by `miopen-wrap adopt`, "
      "or -DMIOPEN_WRAP_RENAME_REPORT=<file>): it lists the names the rename changed")
  endif()
  file(READ ${report} report_json)
  _miopen_wrap_json_members("${report_json}" definitions name names)
  list(REMOVE_DUPLICATES names)
  list(SORT names)
  set(text "/* Generated by MIOpenWrapAdopt.cmake (MIOPEN_ENABLE_HIPDNN_WRAPPER=OFF) from\n"
           " * ${report}; do not edit.\n"
           " * Every entry point the adoption renamed to <name>_impl compiles under\n"
           " * its public name again: one libMIOpen.so, as before the adoption. */\n")
  foreach(n IN LISTS names)
    string(APPEND text "#define ${n}_impl ${n}\n")
  endforeach()
  set(header ${CMAKE_CURRENT_BINARY_DIR}/miopen_wrap_public_names.h)
  file(CONFIGURE OUTPUT ${header} CONTENT "${text}")
  target_compile_options(${private} PRIVATE "SHELL:-include ${header}")
  set_target_properties(${private} PROPERTIES OUTPUT_NAME ${public})
  add_library(${public} INTERFACE)
  target_link_libraries(${public} INTERFACE ${private})
  list(LENGTH names count)
  message(STATUS "MIOpen hipDNN wrapper: off (MIOPEN_ENABLE_HIPDNN_WRAPPER=OFF); lib${public}.so is ${private} "
    "with its ${count} renamed entry points under their public names")
endfunction()

function(miopen_wrap_adopt_wrapper)
  cmake_parse_arguments(A "" "WRAPPER_TARGET;PRIVATE_TARGET" "" ${ARGN})
  if(NOT A_WRAPPER_TARGET OR NOT A_PRIVATE_TARGET)
    message(FATAL_ERROR "miopen_wrap_adopt_wrapper: WRAPPER_TARGET and PRIVATE_TARGET are required")
  endif()
  if(NOT MIOPEN_ENABLE_HIPDNN_WRAPPER)
    _miopen_wrap_single_library(${A_WRAPPER_TARGET} ${A_PRIVATE_TARGET})
    return()
  endif()
  if(NOT MIOPEN_BACKEND MATCHES "^HIP")
    message(FATAL_ERROR "miopen-hipdnn wrapper: only the HIP backend is supported "
      "(MIOPEN_BACKEND=${MIOPEN_BACKEND})")
  endif()

  # The wrapper carries exactly the file version the library had before the
  # split (MIOpen: rocm_set_soversion(MIOpen 1.0) -> VERSION 1.0;
  # miopen_wrap_add_wrapper reads the private target's when it has them); the
  # stamp carries the release (rocm_setup_version(VERSION 3.3.0) -> PROJECT_VERSION).
  get_target_property(version ${A_PRIVATE_TARGET} VERSION)
  get_target_property(soversion ${A_PRIVATE_TARGET} SOVERSION)
  if(NOT version)
    set(version ${PROJECT_VERSION})
  endif()
  if(NOT soversion)
    string(REGEX MATCH "^[0-9]+" soversion "${version}")
  endif()
  set(release "${MIOPEN_WRAP_RELEASE_VERSION}")
  if(NOT release)
    set(release "${PROJECT_VERSION}")
  endif()
  if(NOT release MATCHES "^[0-9]+\\.[0-9]+\\.[0-9]+")
    message(FATAL_ERROR "miopen-hipdnn wrapper: no MIOpen release version (PROJECT_VERSION is "
      "'${PROJECT_VERSION}'); configure with -DMIOPEN_WRAP_RELEASE_VERSION=<major>.<minor>.<patch>")
  endif()
  string(REGEX MATCH "^[0-9]+\\.[0-9]+\\.[0-9]+" release "${release}")
  set(node "${MIOPEN_WRAP_VERSION_NODE}")
  if(NOT node)
    set(node MIOPEN_${MIOPEN_BACKEND}_1)
  endif()
  _miopen_wrap_rename_report(report)
  set(report_args)
  if(report)
    _miopen_wrap_survivor_call_sources(${report} checked)
    set(report_args RENAME_REPORT ${report} CHECK_SURVIVOR_CALLS_IN ${checked})
  endif()

  # Parsing miopen.h: the tree's include dir, the configured config.h /
  # version.h / export.h, and the HIP stand-in (only hipStream_t and the
  # stdint types are needed; the real HIP headers want platform macros).
  miopen_wrap_add_wrapper(
    WRAPPER_TARGET ${A_WRAPPER_TARGET}
    PRIVATE_TARGET ${A_PRIVATE_TARGET}
    PUBLIC_HEADER ${PROJECT_SOURCE_DIR}/include/miopen/miopen.h
    PARSE_INCLUDE_DIRS ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include
                       ${MIOPEN_WRAP_SOURCE_DIR}/src_patches/standin/hip-include
    PUBLIC_INCLUDE_DIRS ${PROJECT_SOURCE_DIR}/include ${PROJECT_BINARY_DIR}/include
    VERSION_NODE ${node}
    VERSION ${version}
    SOVERSION ${soversion}
    RELEASE_VERSION ${release}
    ${report_args}
    # MIOpen's own install rules (edited) install the two libraries.
    INSTALL)

  # Consumers of the public library got HIP's host interface from it before.
  if(TARGET hip::host)
    target_link_libraries(${A_WRAPPER_TARGET} INTERFACE hip::host)
  endif()
endfunction()
