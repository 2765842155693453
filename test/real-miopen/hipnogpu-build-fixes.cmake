# hipnogpu-build-fixes.cmake -- given to both MIOpen trees (pre-wrapper and
# adopted) by scripts/real-miopen-check.sh as CMAKE_PROJECT_INCLUDE, so that
# the HIPNOGPU build without rocBLAS compiles. It edits no file of the tree.
#
# MIOpen's src/include/miopen/nogpu/handle_impl.hpp declares a
# `rocblas_handle_ptr` member unconditionally, while <miopen/handle.hpp>
# defines that type only when MIOPEN_USE_ROCBLAS is on. So with rocBLAS off,
# src/nogpu/handle.cpp cannot compile. Only that one file gets a stand-in
# type, through a forced include. Nothing uses the member when rocBLAS is
# off.
include_guard(GLOBAL)

function(_real_miopen_hipnogpu_fixes)
  set(handle ${CMAKE_SOURCE_DIR}/src/nogpu/handle.cpp)
  if(MIOPEN_BACKEND STREQUAL "HIPNOGPU" AND NOT MIOPEN_USE_ROCBLAS AND EXISTS ${handle})
    set_source_files_properties(${handle} DIRECTORY ${CMAKE_SOURCE_DIR}/src PROPERTIES
      COMPILE_OPTIONS "-include;${_REAL_MIOPEN_FIXES_DIR}/rocblas-handle-standin.hpp")
    message(STATUS "real-miopen-check: src/nogpu/handle.cpp gets the rocblas_handle_ptr stand-in")
  endif()
endfunction()

set(_REAL_MIOPEN_FIXES_DIR ${CMAKE_CURRENT_LIST_DIR})
# After the whole top-level CMakeLists.txt ran (src/ added by then).
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL _real_miopen_hipnogpu_fixes)
