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
#       creates the wrapper library (libMIOpen.so, the Rust pass-through of
#       RFC 0001) with miopen_wrap_add_wrapper(), taking VERSION/SOVERSION
#       from the private library (i.e. what libMIOpen.so had before), and
#       installs miopen_impl.h under include/miopen_private.
#
# Cache variables:
#   MIOPEN_WRAP_SOURCE_DIR    this repository (set by the patch; override with -D)
#   MIOPEN_WRAP_VERSION_NODE  version node of the public exports
#                             (default MIOPEN_${MIOPEN_BACKEND}_1, as MIOpen's lib.def)
#   MIOPEN_WRAP_RENAME_REPORT `miopen-wrap rename --report` JSON of the adopted
#                             tree (default: <tree>/cmake/miopen-wrap-rename-report.json
#                             when present); its survivors get wrapper stubs
include_guard(GLOBAL)

if(NOT EXISTS "${MIOPEN_WRAP_SOURCE_DIR}/cmake/MIOpenHipdnnWrapper.cmake")
  message(FATAL_ERROR "MIOPEN_WRAP_SOURCE_DIR='${MIOPEN_WRAP_SOURCE_DIR}' is not the "
    "miopen-hipdnn wrapper repository (no cmake/MIOpenHipdnnWrapper.cmake); "
    "configure with -DMIOPEN_WRAP_SOURCE_DIR=<repo>")
endif()

# --- Rust crates (tools + wrapper) through Corrosion -------------------------
list(APPEND CMAKE_PREFIX_PATH /opt/miopen-wrap-tools/usr)
if(NOT Rust_COMPILER)
  execute_process(COMMAND rustup which rustc OUTPUT_VARIABLE _miopen_wrap_rustc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _miopen_wrap_rc)
  if(_miopen_wrap_rc EQUAL 0 AND EXISTS "${_miopen_wrap_rustc}")
    set(Rust_COMPILER "${_miopen_wrap_rustc}" CACHE FILEPATH "rustc used by Corrosion")
  endif()
endif()
find_package(Corrosion 0.5 REQUIRED)
if(NOT TARGET miopen-wrap)
  corrosion_import_crate(MANIFEST_PATH ${MIOPEN_WRAP_SOURCE_DIR}/Cargo.toml
                         CRATES miopen-wrap)
  # The wrapper's own profile: fat LTO (see the project's Cargo.toml).
  corrosion_import_crate(MANIFEST_PATH ${MIOPEN_WRAP_SOURCE_DIR}/Cargo.toml
                         CRATES miopen-abi-runtime PROFILE wrapper)
endif()
include(${MIOPEN_WRAP_SOURCE_DIR}/cmake/MIOpenHipdnnWrapper.cmake)
include(GenerateExportHeader)
include(GNUInstallDirs)

set(MIOPEN_WRAP_VERSION_NODE "" CACHE STRING
  "Version node of libMIOpen.so's exports (empty: MIOPEN_<backend>_1)")
set(MIOPEN_WRAP_RENAME_REPORT "" CACHE FILEPATH
  "Rename report of the adopted tree (empty: <tree>/cmake/miopen-wrap-rename-report.json if present)")

function(_miopen_wrap_install_file file dest)
  if(COMMAND rocm_install)
    rocm_install(FILES ${file} DESTINATION ${dest})
  else()
    install(FILES ${file} DESTINATION ${dest})
  endif()
endfunction()

function(miopen_wrap_private_export_header target)
  # The header's export/import switch stays MIOpen_EXPORTS, the define the
  # library compiled with before its target was renamed.
  set_target_properties(${target} PROPERTIES DEFINE_SYMBOL MIOpen_EXPORTS)
  set(file ${CMAKE_BINARY_DIR}/include/miopen/export.h)
  generate_export_header(${target} BASE_NAME MIOpen EXPORT_FILE_NAME ${file})
  target_include_directories(${target} PUBLIC $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>)
  _miopen_wrap_install_file(${file} include/miopen)
endfunction()

function(miopen_wrap_adopt_wrapper)
  cmake_parse_arguments(A "" "WRAPPER_TARGET;PRIVATE_TARGET" "" ${ARGN})
  if(NOT A_WRAPPER_TARGET OR NOT A_PRIVATE_TARGET)
    message(FATAL_ERROR "miopen_wrap_adopt_wrapper: WRAPPER_TARGET and PRIVATE_TARGET are required")
  endif()
  if(NOT MIOPEN_BACKEND MATCHES "^HIP")
    message(FATAL_ERROR "miopen-hipdnn wrapper: only the HIP backend is supported "
      "(MIOPEN_BACKEND=${MIOPEN_BACKEND})")
  endif()

  # The wrapper carries exactly the version the library had before the split.
  get_target_property(version ${A_PRIVATE_TARGET} VERSION)
  get_target_property(soversion ${A_PRIVATE_TARGET} SOVERSION)
  if(NOT version)
    set(version ${PROJECT_VERSION})
  endif()
  if(NOT soversion)
    string(REGEX MATCH "^[0-9]+" soversion "${version}")
  endif()
  set(node "${MIOPEN_WRAP_VERSION_NODE}")
  if(NOT node)
    set(node MIOPEN_${MIOPEN_BACKEND}_1)
  endif()
  set(report "${MIOPEN_WRAP_RENAME_REPORT}")
  if(NOT report AND EXISTS ${PROJECT_SOURCE_DIR}/cmake/miopen-wrap-rename-report.json)
    set(report ${PROJECT_SOURCE_DIR}/cmake/miopen-wrap-rename-report.json)
  endif()
  set(report_args)
  if(report)
    set(report_args RENAME_REPORT ${report})
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
    ${report_args})

  # Consumers of the public library got HIP's host interface from it before.
  if(TARGET hip::host)
    target_link_libraries(${A_WRAPPER_TARGET} INTERFACE hip::host)
  endif()

  # The private include subtree: miopen_impl.h reaches consumers of the
  # private library only (its INTERFACE_INCLUDE_DIRECTORIES, set by the module).
  get_target_property(gen ${A_WRAPPER_TARGET} MIOPEN_WRAP_GENERATED_DIR)
  _miopen_wrap_install_file(${gen}/include/miopen/miopen_impl.h
                            ${CMAKE_INSTALL_INCLUDEDIR}/miopen_private/miopen)
  _miopen_wrap_install_file(${gen}/manifest.json ${CMAKE_INSTALL_DATADIR}/miopen-wrap)
endfunction()
