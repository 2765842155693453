# MIOpenWrapSanitize.cmake -- the sanitizer build (docs/testing.md, "Sanitizers").
#
#   -DMIOPEN_WRAP_SANITIZE=address   AddressSanitizer + UndefinedBehaviorSanitizer
#   -DMIOPEN_WRAP_SANITIZE=thread    ThreadSanitizer
#
# Instruments every C and C++ target of this tree (the test beds, the
# wrapper's C parts, MIOpen Private, the in-tree consumers and programs) and
# the wrapper's Rust staticlib with its Rust dependencies (forwarding-core,
# hipdnn-backend): rustc takes -Zsanitizer on stable with RUSTC_BOOTSTRAP=1.
# Rust's standard library stays the toolchain's prebuilt, uninstrumented one
# (no rust-src to rebuild it with -Zbuild-std): accesses made inside std's
# own compiled code are not checked, while std's generic code (Vec, Arc,
# Mutex, HashMap, ...) is instantiated in the wrapper's crates and is.
#
# The consumers of the installed tree are built by a separate CMake project;
# scripts/sanitize.sh gives it the same flags through CFLAGS/CXXFLAGS/LDFLAGS.
#
# The runtimes: with `address` every executable and shared library takes
# GCC's libasan (it accepts rustc's instrumentation). With `thread` GCC's
# libtsan lacks entry points rustc's LLVM emits (__tsan_memcpy), so
# executables link rustc's own TSan runtime (librustc-stable_rt.tsan.a) and
# shared libraries link none (they resolve against the executable's).
set(MIOPEN_WRAP_SANITIZE "" CACHE STRING "Build instrumented: address (ASan+UBSan) or thread (TSan)")
set_property(CACHE MIOPEN_WRAP_SANITIZE PROPERTY STRINGS "" address thread)

if(MIOPEN_WRAP_SANITIZE STREQUAL "")
  return()
endif()

execute_process(COMMAND rustc --print sysroot OUTPUT_VARIABLE _rust_sysroot OUTPUT_STRIP_TRAILING_WHITESPACE)
execute_process(COMMAND rustc -vV OUTPUT_VARIABLE _rustc_vv)
string(REGEX MATCH "host: ([^\n]+)" _ "${_rustc_vv}")
set(_rust_host ${CMAKE_MATCH_1})

if(MIOPEN_WRAP_SANITIZE STREQUAL "address")
  set(MIOPEN_WRAP_SANITIZE_C_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  set(MIOPEN_WRAP_SANITIZE_LINK_FLAGS -fsanitize=address,undefined)
  set(MIOPEN_WRAP_SANITIZE_RUSTFLAGS -Zsanitizer=address)
  # MIOpen's own library (the test bed's, by mini_miopen_add_library): its C
  # API loads caller-given enum values before validating them, as MIOpen does.
  set(MIOPEN_WRAP_SANITIZE_MIOPEN_C_FLAGS -fno-sanitize=enum)
elseif(MIOPEN_WRAP_SANITIZE STREQUAL "thread")
  set(MIOPEN_WRAP_SANITIZE_C_FLAGS -fsanitize=thread -fno-omit-frame-pointer)
  set(_tsan_rt ${_rust_sysroot}/lib/rustlib/${_rust_host}/lib/librustc-stable_rt.tsan.a)
  if(NOT EXISTS ${_tsan_rt})
    message(FATAL_ERROR "MIOPEN_WRAP_SANITIZE=thread: rustc's TSan runtime ${_tsan_rt} is missing")
  endif()
  # --export-dynamic: a library the executable dlopens (the hipDNN backend,
  # its engine plugins) resolves the runtime's entry points and interceptors
  # against the executable too, not only the libraries on its link line.
  set(MIOPEN_WRAP_SANITIZE_EXE_LINK_FLAGS "-Wl,--whole-archive;${_tsan_rt};-Wl,--no-whole-archive;-Wl,--export-dynamic;-lpthread;-ldl;-lm;-lrt")
  # miopen_wrap_tsan: forwarding-core's Mutex tells TSan about its lock
  # (rust/forwarding-core/src/sync.rs): std's own is uninstrumented.
  set(MIOPEN_WRAP_SANITIZE_RUSTFLAGS -Zsanitizer=thread --cfg miopen_wrap_tsan)
else()
  message(FATAL_ERROR "MIOPEN_WRAP_SANITIZE=${MIOPEN_WRAP_SANITIZE}: expected address or thread")
endif()

add_compile_options(${MIOPEN_WRAP_SANITIZE_C_FLAGS})
if(MIOPEN_WRAP_SANITIZE STREQUAL "address")
  add_link_options(${MIOPEN_WRAP_SANITIZE_LINK_FLAGS})
else()
  add_link_options("$<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:${MIOPEN_WRAP_SANITIZE_EXE_LINK_FLAGS}>")
endif()

# The Rust crates: the runtime staticlib (and through it forwarding-core and
# hipdnn-backend). The tool (miopen-wrap) runs at build time and is not
# instrumented here; the fuzz targets run its parsers under ASan.
function(miopen_wrap_sanitize_rust crate_target)
  corrosion_add_target_rustflags(${crate_target} ${MIOPEN_WRAP_SANITIZE_RUSTFLAGS}
    -Cunsafe-allow-abi-mismatch=sanitizer -Cforce-frame-pointers=yes)
  corrosion_set_env_vars(${crate_target} RUSTC_BOOTSTRAP=1)
endfunction()

# libMIOpen.so links with --no-undefined; under TSan its Rust code refers to
# runtime entry points only an executable provides. Given after the target's
# own options (as a library item), -z undefs lifts that for this build only.
function(miopen_wrap_sanitize_shared_library target)
  if(MIOPEN_WRAP_SANITIZE STREQUAL "thread")
    target_link_libraries(${target} PRIVATE "-Wl,-z,undefs")
  endif()
endfunction()

# Once every target exists (end of the top directory): the runtime crate and
# the wrapper library this tree builds.
function(miopen_wrap_sanitize_targets)
  miopen_wrap_sanitize_rust(miopen_abi_runtime)
  if(TARGET MIOpen)
    miopen_wrap_sanitize_shared_library(MIOpen)
  endif()
endfunction()
cmake_language(DEFER DIRECTORY ${CMAKE_SOURCE_DIR} CALL miopen_wrap_sanitize_targets)
