#!/usr/bin/env python3
"""End-to-end check of `miopen-wrap adopt`'s CMake edits +
src_patches/cmake/MIOpenWrapAdopt.cmake without ROCm: a MIOpen-shaped CMake
layout (our own minimal CMake, written here; no MIOpen text) around an
already renamed mini MIOpen tree, edited by `miopen-wrap adopt`, then
configured and built for real.

  synthetic_build.py --renamed-tree DIR --work DIR --miopen-wrap BIN [--repo DIR]

DIR is the `tree/` of `miopen-wrap adopt test/mini-miopen --skip cmake-edits
--skip cmake-edits-check` (public entry points already in _impl form); its
rename-report.json (next to it) is copied to <tree>/cmake/ as the command
does, so survivors get stubs. Checks:
  * the CMake edits apply, and a second run changes nothing
  * the patched tree configures (Corrosion, crates, miopen_wrap_add_wrapper)
    and builds libMIOpen.so (wrapper) + libMIOpen_private.so
  * libMIOpen.so exports miopenGetVersion@MIOPEN_HIP_1, no *_impl, and the
    public name of every *_impl the private library exports (survivors too);
    libMIOpen_private.so exports miopenGetVersion_impl and not miopenGetVersion
  * <miopen/export.h> of the renamed target still defines MIOPEN_EXPORT
  * a consumer linked through MIOpen_with_plugins runs and reports the version
  * what the real MIOpen pair exposed (issue 14), mirrored here: the layout
    sets the release with rocm_setup_version(VERSION 3.3.0) and the file
    version with rocm_set_soversion(MIOpen 1.0), links an internal library
    into the target's interface (MIOpen's target_internal_library, Boost
    there), and its lib.def has no `local: *;`, so internal data objects are
    exported unversioned; the same layout without the patches builds the
    pre-wrapper baseline, and
      - both libraries are stamped miopen-version:3.3.0 (not the 1.0 file version)
      - the wrapper's DT_NEEDED is the private library and the C runtime only
      - `miopen-wrap check all` passes on the pair against the baseline
        (survivors incl. a lowercase `miopen_*` C entry point, the internal
        data objects left to the private library)
  * TheRock's switch, -DMIOPEN_ENABLE_HIPDNN_WRAPPER=OFF, on the same adopted
    tree (no second rename): one libMIOpen.so.1, no private library, no
    Rust build; its exported C names with their versions, SONAME and
    DT_NEEDED equal the baseline's, it carries no .miopen_version stamp, and
    the consumer prints the same as on the baseline (its own build and the
    baseline's binary on the OFF library)
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from expectations import expect, failures  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# The adopt steps that need the unrenamed sources: the tree is renamed already.
SOURCE_STEPS = ["rename", "rename-check", "generate", "typecheck", "stubs"]

TOP = """\
cmake_minimum_required(VERSION 3.25)
project(MIOpen C CXX)
set(CMAKE_CXX_STANDARD 17)
# As rocm-cmake's: the release goes to PROJECT_VERSION.
function(rocm_setup_version)
  cmake_parse_arguments(A "" "VERSION" "" ${ARGN})
  set(PROJECT_VERSION ${A_VERSION} PARENT_SCOPE)
endfunction()
rocm_setup_version(VERSION 3.3.0)
set(MIOPEN_BACKEND HIP)
# Link as MIOpen's clang build does: without --as-needed (some GCC builds
# default to it, which would hide a link dependency leaking onto the wrapper).
add_link_options(LINKER:--no-as-needed)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/lib)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
include(GenerateExportHeader)
# Stand-ins for the ROCm CMake helpers the layout calls.
function(rocm_set_soversion target so)
  set_target_properties(${target} PROPERTIES SOVERSION 1 VERSION ${so}.0)
endfunction()
function(clang_tidy_check target)
endfunction()
function(rocm_install)
  install(${ARGN})
endfunction()
function(rocm_install_targets)
  cmake_parse_arguments(A "" "" "TARGETS;INCLUDE" ${ARGN})
  install(TARGETS ${A_TARGETS} EXPORT synthetic-targets LIBRARY DESTINATION lib)
endfunction()
function(rocm_export_targets)
  install(EXPORT synthetic-targets DESTINATION lib/cmake/synthetic)
endfunction()
function(miopen_generate_export_header TARGET)
  string(REPLACE "_" "/" dir ${TARGET})
  string(TOLOWER ${dir} dir)
  generate_export_header(${TARGET} EXPORT_FILE_NAME ${CMAKE_BINARY_DIR}/include/${dir}/export.h)
  target_include_directories(${TARGET} PUBLIC $<BUILD_INTERFACE:${CMAKE_BINARY_DIR}/include>)
endfunction()
set(MINI_MIOPEN_VERSION_MAJOR 3)
set(MINI_MIOPEN_VERSION_MINOR 3)
set(MINI_MIOPEN_VERSION_PATCH 0)
set(MINI_MIOPEN_BACKEND_HIP 1)
configure_file(include/miopen/config.h.in ${CMAKE_BINARY_DIR}/include/miopen/config.h @ONLY)
configure_file(include/miopen/version.h.in ${CMAKE_BINARY_DIR}/include/miopen/version.h @ONLY)
add_subdirectory(src)
add_subdirectory(consumer)
"""

SRC = """\
file(GLOB_RECURSE SYNTH_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
if(SYNTH_TWO_SITES)
    add_library( MIOpen SHARED ${SYNTH_SOURCES} )
else()
    add_library( MIOpen SHARED ${SYNTH_SOURCES} )
endif()
rocm_set_soversion(MIOpen 1.0)
clang_tidy_check(MIOpen)
target_include_directories(MIOpen PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src/include>
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${SYNTH_HIP_INCLUDE}>)
target_compile_definitions(MIOpen PRIVATE MIOPEN_BETA_API=1)
target_compile_options(MIOpen PRIVATE -Wno-attributes)
miopen_generate_export_header(MIOpen)
# An internal library on the target's build interface, as MIOpen links Boost.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/internal_dep.c "int synthetic_internal_dep(void) { return 1; }\\n")
add_library(synthetic_internal_dep SHARED ${CMAKE_CURRENT_BINARY_DIR}/internal_dep.c)
function(target_internal_library TARGET)
    target_link_libraries(${TARGET} PRIVATE ${ARGN})
    target_link_libraries(${TARGET} INTERFACE $<BUILD_INTERFACE:${ARGN}>)
endfunction()
target_internal_library(MIOpen synthetic_internal_dep)
# The HIP runtime, which MIOpen links (hip::host) and its default allocator
# calls: the test bed's host-memory stand-in, beside the sources.
# Linked by its file, as an installed ROCm's is: no target in the export set.
add_library(synthetic_hip_runtime SHARED ${PROJECT_SOURCE_DIR}/hip-runtime/hip_runtime.cpp)
add_dependencies(MIOpen synthetic_hip_runtime)
target_link_libraries(MIOpen PRIVATE $<TARGET_FILE:synthetic_hip_runtime>)
add_library(MIOpen_with_plugins INTERFACE)
target_link_libraries(MIOpen_with_plugins INTERFACE MIOpen)
# MIOpen's shape: miopen* at the node, no `local: *;`.
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/lib.def "MIOPEN_${MIOPEN_BACKEND}_1 { global: miopen*; local: *boost*; };\\n")
target_link_libraries(MIOpen PRIVATE "-Wl,--version-script=${CMAKE_CURRENT_BINARY_DIR}/lib.def")
rocm_install_targets(
  TARGETS MIOpen
  INCLUDE ${PROJECT_SOURCE_DIR}/include
)
rocm_export_targets(
  TARGETS MIOpen
)
"""

CONSUMER_CMAKE = """\
add_executable(synthetic_consumer main.c)
target_link_libraries(synthetic_consumer MIOpen_with_plugins)
target_include_directories(synthetic_consumer PRIVATE ${PROJECT_SOURCE_DIR}/include
    ${CMAKE_BINARY_DIR}/include ${SYNTH_HIP_INCLUDE})
"""

CONSUMER_C = """\
#include <stdio.h>
#include <miopen/miopen.h>
int main(void)
{
    size_t major = 0, minor = 0, patch = 0;
    if(miopenGetVersion(&major, &minor, &patch) != miopenStatusSuccess)
        return 1;
    printf("synthetic consumer: version %zu.%zu.%zu\\n", major, minor, patch);
    miopenHandle_t h = NULL;
    miopenTensorDescriptor_t x = NULL, w = NULL;
    miopenConvolutionDescriptor_t c = NULL;
    int n = 0, ch = 0, hh = 0, ww = 0;
    printf("create %d\\n", (int)miopenCreate(&h));
    printf("tensors %d %d\\n", (int)miopenCreateTensorDescriptor(&x), (int)miopenCreateTensorDescriptor(&w));
    printf("set x %d\\n", (int)miopenSet4dTensorDescriptor(x, miopenFloat, 2, 3, 8, 8));
    printf("set w %d\\n", (int)miopenSet4dTensorDescriptor(w, miopenFloat, 4, 3, 3, 3));
    printf("conv %d\\n", (int)miopenCreateConvolutionDescriptor(&c));
    printf("init %d\\n", (int)miopenInitConvolutionDescriptor(c, miopenConvolution, 1, 1, 1, 1, 1, 1));
    printf("output %d", (int)miopenGetConvolutionForwardOutputDim(c, x, w, &n, &ch, &hh, &ww));
    printf(" %d %d %d %d\\n", n, ch, hh, ww);
    printf("bad %d: %s\\n", (int)miopenSet4dTensorDescriptor(NULL, miopenFloat, 1, 1, 1, 1),
           miopenGetErrorString(miopenStatusBadParm));
    miopenDestroyConvolutionDescriptor(c);
    miopenDestroyTensorDescriptor(w);
    miopenDestroyTensorDescriptor(x);
    printf("destroy %d\\n", (int)miopenDestroy(h));
    return 0;
}
"""


def sh(cmd, **kw) -> subprocess.CompletedProcess:
    print("+ " + " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], text=True, capture_output=True, **kw)




# Objects of the kinds MIOpen exports by accident (embedded kernel sizes,
# environment-variable objects): global namespace, so unmangled C names.
INTERNAL_DATA = """\
#include <cstddef>
extern const std::size_t MIOPEN_KERNEL_SYNTHETIC_SIZE;
const std::size_t MIOPEN_KERNEL_SYNTHETIC_SIZE = 4096;
struct SyntheticEnvVar { const char* name; };
SyntheticEnvVar MIOPEN_DEBUG_SYNTHETIC_FLAG{"MIOPEN_DEBUG_SYNTHETIC_FLAG"};
"""


def lay_out(tree: Path, repo: Path) -> None:
    """Our MIOpen-shaped CMake layout and test sources around a mini tree."""
    (tree / "CMakeLists.txt").write_text(TOP)
    (tree / "hip-runtime").mkdir(exist_ok=True)
    shutil.copy(repo / "test" / "mini-miopen" / "hip-runtime" / "hip_runtime.cpp", tree / "hip-runtime")
    (tree / "src" / "CMakeLists.txt").write_text(SRC)
    (tree / "src" / "synthetic_internal_data.cpp").write_text(INTERNAL_DATA)
    (tree / "consumer").mkdir(exist_ok=True)
    (tree / "consumer" / "CMakeLists.txt").write_text(CONSUMER_CMAKE)
    (tree / "consumer" / "main.c").write_text(CONSUMER_C)


def configure_and_build(tree: Path, build: Path, hip: Path, env: dict, what: str, cmake_args: list,
                        miopen_wrap: Path | None = None) -> bool:
    """Configure and build one side; with `miopen_wrap`, the wrapped side, whose
    configure must report the wrapper and that tool generating its stubs."""
    shutil.rmtree(build, ignore_errors=True)
    r = sh(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Release", f"-DSYNTH_HIP_INCLUDE={hip}",
            *cmake_args], env=env)
    expect(r.returncode == 0, f"{what} configures", r.stdout + r.stderr)
    if r.returncode:
        return False
    if miopen_wrap:
        expect("MIOpen hipDNN wrapper: libMIOpen.so.1" in r.stdout, "configure reports the wrapper", r.stdout)
        expect(f"stubs generated by {miopen_wrap}" in r.stdout, "the given miopen-wrap generates the stubs", r.stdout)
    r = sh(["cmake", "--build", build, "-j", "2"], env=env)
    expect(r.returncode == 0, f"{what} builds", r.stdout + r.stderr)
    return r.returncode == 0


def version_stamp(lib: Path) -> str:
    r = sh(["readelf", "-p", ".miopen_version", lib])
    return " ".join(re.findall(r"miopen-version:[0-9.]+", r.stdout))


def needed(lib: Path) -> list[str]:
    r = sh(["readelf", "-d", lib])
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", r.stdout)


def versioned_dynsyms(lib: Path) -> set[str]:
    """Defined dynamic symbols as `name@@node` (`name` when unversioned)."""
    r = sh(["nm", "-D", "--defined-only", "--with-symbol-versions", lib])
    return {line.split()[-1] for line in r.stdout.splitlines() if line.strip()}


def dynsyms(lib: Path) -> set[str]:
    return {s.split("@")[0] for s in versioned_dynsyms(lib)}


def soname(lib: Path) -> str:
    r = sh(["readelf", "-d", lib])
    m = re.search(r"\(SONAME\)\s+Library soname: \[([^\]]+)\]", r.stdout)
    return m.group(1) if m else ""


def check_wrapper_off(tree: Path, build: Path, baseline_build: Path, private_lib: Path, hip: Path, env: dict,
                      cmake_args: list) -> None:
    """-DMIOPEN_ENABLE_HIPDNN_WRAPPER=OFF on the adopted tree: the pre-wrapper library again."""
    shutil.rmtree(build, ignore_errors=True)
    r = sh(["cmake", "-S", tree, "-B", build, "-DCMAKE_BUILD_TYPE=Release", f"-DSYNTH_HIP_INCLUDE={hip}",
            "-DMIOPEN_ENABLE_HIPDNN_WRAPPER=OFF", *cmake_args], env=env)
    expect(r.returncode == 0 and "MIOpen hipDNN wrapper: off" in r.stdout,
           "MIOPEN_ENABLE_HIPDNN_WRAPPER=OFF: the adopted tree configures as one library", r.stdout + r.stderr)
    if r.returncode:
        return
    r = sh(["cmake", "--build", build, "-j", "2"], env=env)
    expect(r.returncode == 0, "MIOPEN_ENABLE_HIPDNN_WRAPPER=OFF builds", r.stdout + r.stderr)
    if r.returncode:
        return
    lib, baseline = build / "lib" / "libMIOpen.so.1", baseline_build / "lib" / "libMIOpen.so.1"
    expect(lib.exists() and not list((build / "lib").glob("libMIOpen_private*")),
           "OFF: libMIOpen.so.1 and no libMIOpen_private.so")
    expect(not (build / "cargo").exists(), "OFF: no Rust crate is built (no Corrosion build directory)")
    off_syms, base_syms = versioned_dynsyms(lib), versioned_dynsyms(baseline)
    c_names = lambda syms: {x for x in syms if not x.startswith("_Z")}  # noqa: E731
    off_c, base_c = c_names(off_syms), c_names(base_syms)
    expect(off_c == base_c, f"OFF: the exported C names and their versions are the baseline's ({len(off_c)})",
           f"only OFF: {sorted(off_c - base_c)[:20]}; only baseline: {sorted(base_c - off_c)[:20]}")
    # Its C++ exports are the adopted sources', as the ON pair's private
    # library has them: the baseline's, plus what the logger edit's inline
    # helpers add where a build exports inline functions (the real tree's
    # counts do not change).
    off_cxx = off_syms - off_c
    private_cxx = {x for x in versioned_dynsyms(private_lib) if x.startswith("_Z")}
    expect(off_cxx == private_cxx and (base_syms - base_c) <= off_cxx,
           f"OFF: the C++ exports are the ON private library's ({len(off_cxx)}), a superset of the baseline's",
           f"OFF vs private: {sorted(off_cxx ^ private_cxx)[:10]}; "
           f"baseline only: {sorted((base_syms - base_c) - off_cxx)[:10]}")
    expect(soname(lib) == soname(baseline) == "libMIOpen.so.1", "OFF: SONAME libMIOpen.so.1, as the baseline's")
    expect(needed(lib) == needed(baseline), "OFF: DT_NEEDED as the baseline's",
           f"{needed(lib)} vs {needed(baseline)}")
    expect(version_stamp(lib) == "", "OFF: no .miopen_version stamp (the baseline has none)", version_stamp(lib))
    base_out = sh([baseline_build / "bin" / "synthetic_consumer"])
    own_out = sh([build / "bin" / "synthetic_consumer"])
    dropin_env = dict(os.environ, LD_LIBRARY_PATH=str(build / "lib"))
    dropin_out = sh([baseline_build / "bin" / "synthetic_consumer"], env=dropin_env)
    same = base_out.returncode == own_out.returncode == dropin_out.returncode == 0 and \
        base_out.stdout == own_out.stdout == dropin_out.stdout and base_out.stdout.count("\n") > 5
    expect(same, "OFF: the consumer's output equals the baseline's (its own build, and the baseline binary on OFF)",
           f"baseline:\n{base_out.stdout}\nOFF:\n{own_out.stdout}\nbaseline binary on OFF:\n{dropin_out.stdout}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--renamed-tree", type=Path, required=True)
    ap.add_argument("--pre-wrapper-tree", type=Path, required=True,
                    help="the mini MIOpen in MIOpen's layout, before the rename (adopt_mini_miopen_layout's)")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--repo", type=Path, default=REPO)
    ap.add_argument("--miopen-wrap", type=Path, required=True)
    ap.add_argument("--cmake-arg", action="append", default=[],
                    help="extra argument for configuring the synthetic tree (e.g. -DCorrosion_DIR=...)")
    ap.add_argument("--rename-report", type=Path,
                    help="the adopt run's rename-report.json (default: next to the renamed tree)")
    a = ap.parse_args()
    tree, build = a.work / "tree", a.work / "build"
    base_tree, base_build = a.work / "baseline-tree", a.work / "baseline-build"
    if not (a.renamed_tree / "src").is_dir():
        print(f"no renamed tree at {a.renamed_tree} (run adopt_mini_miopen first)")
        return 1
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(a.renamed_tree, tree, symlinks=True)
    lay_out(tree, a.repo)
    report = a.rename_report or a.renamed_tree.parent / "rename-report.json"
    if report.is_file():  # as `miopen-wrap adopt` does: survivors reach the wrapper
        (tree / "cmake").mkdir(exist_ok=True)
        shutil.copy(report, tree / "cmake" / "miopen-wrap-rename-report.json")

    adopt = [a.miopen_wrap, "adopt", tree, "--in-place", "--wrap-source-dir", a.repo,
             "--work-dir", a.work / "adopt"] + [x for s in SOURCE_STEPS for x in ("--skip", s)]
    r = sh(adopt)
    expect(r.returncode == 0, "the CMake edits apply to the synthetic layout", r.stdout + r.stderr)
    print(r.stdout)
    r = sh(adopt)
    expect(r.returncode == 0 and "already applied; nothing changed" in r.stderr, "second run changes nothing",
           r.stdout + r.stderr)

    hip = a.repo / "src_patches" / "standin" / "hip-include"
    env = dict(os.environ)
    env.setdefault("CARGO_TARGET_DIR", str(a.work / "cargo-target"))
    # The installed-tool path: the MIOpen build runs this miopen-wrap, it does not build one.
    patched_args = [f"-DMIOPEN_WRAP_EXECUTABLE={a.miopen_wrap}", *a.cmake_arg]
    if not configure_and_build(tree, build, hip, env, "patched tree", patched_args, a.miopen_wrap):
        return 1
    lib = build / "lib"
    wrapper, private = lib / "libMIOpen.so.1", lib / "libMIOpen_private.so.1"
    expect(wrapper.exists() and private.exists(), "libMIOpen.so.1 and libMIOpen_private.so.1 built")
    ws, ps = dynsyms(wrapper), dynsyms(private)
    expect("miopenGetVersion" in ws, "wrapper exports miopenGetVersion")
    expect(not [s for s in ws if s.endswith("_impl")], "wrapper exports no _impl name",
           " ".join(s for s in ws if s.endswith("_impl")))
    expect("miopenGetVersion_impl" in ps and "miopenGetVersion" not in ps,
           "private exports miopenGetVersion_impl, not miopenGetVersion")
    missing = sorted(s[:-5] for s in ps if s.startswith("miopen") and s.endswith("_impl") and s[:-5] not in ws)
    expect(not missing, "superset: every miopen*_impl of the private library is exported by the wrapper "
           f"({len([s for s in ps if s.endswith('_impl')])} names)", " ".join(missing))
    r = sh(["readelf", "-d", wrapper])
    expect("libMIOpen_private.so.1" in r.stdout and "SONAME" in r.stdout and "[libMIOpen.so.1]" in r.stdout,
           "wrapper: SONAME libMIOpen.so.1, DT_NEEDED libMIOpen_private.so.1", r.stdout)
    r = sh(["readelf", "--dyn-syms", "-W", wrapper])
    expect(re.search(r"miopenGetVersion@@MIOPEN_HIP_1", r.stdout) is not None,
           "wrapper: miopenGetVersion@@MIOPEN_HIP_1")
    exp = (build / "include" / "miopen" / "export.h")
    expect(exp.exists() and "define MIOPEN_EXPORT" in exp.read_text() and "MIOpen_EXPORTS" in exp.read_text(),
           "<miopen/export.h> keeps MIOPEN_EXPORT and MIOpen_EXPORTS")
    r = sh([build / "bin" / "synthetic_consumer"])
    expect(r.returncode == 0 and "version" in r.stdout, "consumer through MIOpen_with_plugins runs",
           r.stdout + r.stderr)

    # --- what the real pair exposed (issue 14) ---------------------------------
    stamps = (version_stamp(wrapper), version_stamp(private))
    expect(stamps == ("miopen-version:3.3.0", "miopen-version:3.3.0"),
           "both libraries stamped with the release (rocm_setup_version 3.3.0), not the 1.0 file version",
           repr(stamps))
    wneeded = needed(wrapper)
    expect("libMIOpen_private.so.1" in wneeded and not [n for n in wneeded if "synthetic_internal_dep" in n],
           "the target's internal library does not leak onto the wrapper's DT_NEEDED", " ".join(wneeded))
    expect("libsynthetic_internal_dep.so" in needed(private), "the private library keeps its internal library",
           " ".join(needed(private)))
    shutil.rmtree(base_tree, ignore_errors=True)
    shutil.copytree(a.pre_wrapper_tree, base_tree, symlinks=True)
    lay_out(base_tree, a.repo)
    if configure_and_build(base_tree, base_build, hip, env, "pre-wrapper baseline (same layout, no patches)",
                           a.cmake_arg):
        baseline = base_build / "lib" / "libMIOpen.so.1"
        bsyms = dynsyms(baseline)
        expect({"MIOPEN_KERNEL_SYNTHETIC_SIZE", "MIOPEN_DEBUG_SYNTHETIC_FLAG"} <= bsyms,
               "the baseline exports the internal data objects (lib.def has no `local: *;`)")
        r = sh([a.miopen_wrap, "check", "all", "--wrapper", wrapper, "--private", private, "--baseline", baseline,
                "--expect-soname", "libMIOpen.so.1", "--expect-private-soname", "libMIOpen_private.so.1"])
        print(r.stdout)
        expect(r.returncode == 0, "miopen-wrap check all passes on the pair against the baseline",
               r.stdout + r.stderr)
        check_wrapper_off(tree, a.work / "build-off", base_build, private, hip, env, a.cmake_arg)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
