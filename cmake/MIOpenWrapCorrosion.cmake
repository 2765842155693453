# MIOpenWrapCorrosion.cmake -- the wrapper's Rust crates through Corrosion,
# set up in one place for every user: this repository's top level and
# src_patches/cmake/MIOpenWrapAdopt.cmake (a MIOpen build).
#
# Cache variables:
#   MIOPEN_WRAP_CORROSION_HINT  a prefix holding Corrosion (>= 0.5) when it is
#                               not on CMAKE_PREFIX_PATH (default: the prefix
#                               scripts/setup-deps.sh installs it into)
#   Rust_COMPILER               rustc; found through rustup when empty
#
# miopen_wrap_import_runtime(MANIFEST_PATH <Cargo.toml>)
#   imports the runtime crate (miopen-abi-runtime, Cargo profile `wrapper`):
#   target miopen_abi_runtime, static library miopen_abi_runtime-static.
# miopen_wrap_import_tool(MANIFEST_PATH <Cargo.toml>)
#   imports the `miopen-wrap` tool (executable target miopen-wrap).
# miopen_wrap_before_cargo(<crate-target> <target>)
#   <target> is built before cargo builds <crate-target>.
include_guard(GLOBAL)

# Default: where scripts/setup-deps.sh unpacks Debian trixie's Corrosion
# (its MIOPEN_WRAP_TOOLS_PREFIX), so this repository's build and an adopted
# MIOpen tree find the same one. A system install is found first.
if(DEFINED ENV{MIOPEN_WRAP_TOOLS_PREFIX})
  set(MIOPEN_WRAP_CORROSION_DEFAULT_HINT "$ENV{MIOPEN_WRAP_TOOLS_PREFIX}/usr")
else()
  set(MIOPEN_WRAP_CORROSION_DEFAULT_HINT /opt/miopen-wrap-tools/usr)
endif()
set(MIOPEN_WRAP_CORROSION_HINT "${MIOPEN_WRAP_CORROSION_DEFAULT_HINT}" CACHE PATH
  "A prefix holding Corrosion >= 0.5 when it is not on CMAKE_PREFIX_PATH")
if(NOT Rust_COMPILER)
  # With rustup, Corrosion's FindRust needs the real rustc path, not a toolchain name.
  execute_process(COMMAND rustup which rustc OUTPUT_VARIABLE _miopen_wrap_rustc
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE _miopen_wrap_rustup_rc)
  if(_miopen_wrap_rustup_rc EQUAL 0 AND EXISTS "${_miopen_wrap_rustc}")
    set(Rust_COMPILER "${_miopen_wrap_rustc}" CACHE FILEPATH "rustc used by Corrosion")
  endif()
endif()
find_package(Corrosion 0.5 QUIET HINTS ${MIOPEN_WRAP_CORROSION_HINT})
if(NOT Corrosion_FOUND)
  message(FATAL_ERROR "miopen-hipdnn wrapper: Corrosion >= 0.5 not found. Install it, or set "
    "-DMIOPEN_WRAP_CORROSION_HINT=<prefix holding lib/cmake/Corrosion> "
    "(scripts/setup-deps.sh unpacks it under /opt/miopen-wrap-tools/usr).")
endif()

function(miopen_wrap_import_runtime)
  cmake_parse_arguments(A "" "MANIFEST_PATH" "" ${ARGN})
  if(NOT TARGET miopen_abi_runtime)
    # The runtime's own profile: fat LTO keeps the whole-archive link down to
    # the code the stubs reach (see the workspace Cargo.toml).
    corrosion_import_crate(MANIFEST_PATH ${A_MANIFEST_PATH} CRATES miopen-abi-runtime PROFILE wrapper NO_DEFAULT_FEATURES)
  endif()
endfunction()

function(miopen_wrap_import_tool)
  cmake_parse_arguments(A "" "MANIFEST_PATH" "" ${ARGN})
  if(NOT TARGET miopen-wrap)
    corrosion_import_crate(MANIFEST_PATH ${A_MANIFEST_PATH} CRATES miopen-wrap)
  endif()
endfunction()

function(miopen_wrap_before_cargo crate_target target)
  # Corrosion 0.5 has no public command for "build this before cargo runs";
  # cargo runs in `_cargo-build_<crate>` (older releases: `cargo-build_<crate>`).
  # This is the only place that names those targets.
  set(found FALSE)
  foreach(t _cargo-build_${crate_target} cargo-build_${crate_target})
    if(TARGET ${t})
      add_dependencies(${t} ${target})
      set(found TRUE)
    endif()
  endforeach()
  if(NOT found)
    message(FATAL_ERROR "miopen_wrap_before_cargo: no cargo build target for `${crate_target}` "
      "(import it with miopen_wrap_import_runtime first)")
  endif()
endfunction()
