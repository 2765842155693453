#!/usr/bin/env python3
"""Checks of src_patches/apply_src_patches.py on fixture trees this script
writes (our own minimal CMake, shaped like the statements the patcher anchors
on; no MIOpen text).

  check_src_patches.py missing-anchor --work DIR
      a tree without the library target: the patcher fails (exit 3), names the
      missing anchor, and changes nothing; then the same for the install anchor
  check_src_patches.py fixture --work DIR
      a tree with every anchor, including a plugin proxy, a CK plugin
      directory and a test directory: applies, CMake still parses it, the
      proxy keeps MIOpen, the plugin links MIOpen_private, tests gain
      MIOpen_private, and a second run changes nothing
Exit 0 when every check holds.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PATCHER = HERE.parent / "apply_src_patches.py"

SRC_OK = """\
cmake_minimum_required(VERSION 3.20)
set(FIXTURE_SOURCES a.cpp b.cpp)
if(FIXTURE_OPTION)
    add_library( MIOpen ${FIXTURE_SOURCES} extra.cpp )
else()
    add_library( MIOpen ${FIXTURE_SOURCES} )
endif()
rocm_set_soversion(MIOpen 1.0)
target_include_directories(MIOpen PUBLIC $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/src/include>)
miopen_generate_export_header(MIOpen)
set_target_properties(MIOpen PROPERTIES VISIBILITY_INLINES_HIDDEN 1)
add_library(MIOpen_with_plugins INTERFACE)
target_link_libraries(MIOpen_with_plugins INTERFACE MIOpen)
add_dependencies(MIOpen_with_plugins FixtureCKGroupedConv_gfx000)
if(NOT WIN32)
    file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/lib.def "FIXTURE_1 { global: fixture*; local: *; };")
    target_link_libraries(MIOpen PRIVATE "-Wl,--version-script=${CMAKE_CURRENT_BINARY_DIR}/lib.def")
endif()
# a comment that mentions add_library(MIOpen) must not count as an anchor
rocm_install_targets(
  TARGETS MIOpen
  INCLUDE ${PROJECT_SOURCE_DIR}/include
)
rocm_export_targets(
  TARGETS MIOpen
  DEPENDS PACKAGE hip
)
"""

CK_OK = """\
foreach(arch gfx000)
    add_library(FixtureCKGroupedConv_${arch} SHARED plugin.cpp)
    target_link_libraries(FixtureCKGroupedConv_${arch} PRIVATE MIOpen fixture::ck)
endforeach()
"""

TEST_OK = """\
function(fixture_add_test name)
    add_executable(${name} ${name}.cpp)
    target_link_libraries(${name} MIOpen_with_plugins fixture::gtest)
endfunction()
add_executable(public_only_test p.cpp)
target_link_libraries(public_only_test fixture::other)
"""


def run(tree: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-B", str(PATCHER), str(tree), *extra],
                          capture_output=True, text=True)


# The test bed's logger has MIOpen's shape: the source edits' anchors match it.
LOGGER = (HERE.parents[1] / "test/mini-miopen/src/include/miopen/logger.hpp").read_text()


def write(tree: Path, files: dict[str, str]) -> None:
    if tree.exists():
        shutil.rmtree(tree)
    if "src/CMakeLists.txt" in files:
        files = dict(files, **{"src/include/miopen/logger.hpp": LOGGER})
    for rel, text in files.items():
        p = tree / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)


def snapshot(tree: Path) -> dict[str, str]:
    return {str(p.relative_to(tree)): p.read_text() for p in sorted(tree.rglob("*")) if p.is_file()}


failures: list[str] = []


def expect(cond: bool, what: str, detail: str = "") -> None:
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        failures.append(what)
        if detail:
            print("     " + detail.replace("\n", "\n     "))


def missing_anchor(work: Path) -> None:
    cases = [
        ("no library target", SRC_OK.replace("add_library( MIOpen", "add_library( SomethingElse"),
         "anchor `add_library(MIOpen ...)` not found in src/CMakeLists.txt"),
        ("no install of the library", SRC_OK.replace("rocm_install_targets(", "fixture_install_targets("),
         "anchor `rocm_install_targets(TARGETS MIOpen ...)` not found in src/CMakeLists.txt"),
        ("no version script", SRC_OK.replace("lib.def", "other.def"),
         "anchor `file(WRITE .../lib.def ...)` (version script) not found in src/CMakeLists.txt"),
    ]
    for i, (name, text, message) in enumerate(cases):
        tree = work / f"missing-{i}"
        write(tree, {"src/CMakeLists.txt": text})
        before = snapshot(tree)
        r = run(tree)
        expect(r.returncode == 3, f"{name}: exit status 3", f"got {r.returncode}\n{r.stdout}{r.stderr}")
        expect(message in r.stderr, f"{name}: names the anchor ({message})", r.stderr)
        expect(snapshot(tree) == before, f"{name}: tree unchanged")
    tree = work / "missing-file"
    write(tree, {"include/placeholder.txt": "x\n"})
    r = run(tree)
    expect(r.returncode == 3 and "anchor file src/CMakeLists.txt not found" in r.stderr,
           "no src/CMakeLists.txt: exit 3 naming the file", r.stderr)


def fixture(work: Path) -> None:
    tree = work / "fixture"
    write(tree, {"src/CMakeLists.txt": SRC_OK, "src/ck_impl/CMakeLists.txt": CK_OK,
                 "test/CMakeLists.txt": TEST_OK})
    r = run(tree, "--wrap-source-dir", "/fixture/wrap")
    expect(r.returncode == 0, "applies to the fixture", r.stdout + r.stderr)
    print(r.stdout)
    src = (tree / "src/CMakeLists.txt").read_text()
    ck = (tree / "src/ck_impl/CMakeLists.txt").read_text()
    tst = (tree / "test/CMakeLists.txt").read_text()
    expect(src.count("add_library( MIOpen_private") == 2, "both library sites renamed to MIOpen_private")
    expect("target_link_libraries(MIOpen_with_plugins INTERFACE MIOpen)" in src, "proxy keeps linking MIOpen")
    expect('target_link_libraries(MIOpen_private PRIVATE "-Wl,--version-script=' in src,
           "lib.def stays on MIOpen_private")
    expect("miopen_wrap_private_export_header(MIOpen_private)" in src, "export header call replaced")
    expect("miopen_wrap_adopt_wrapper(WRAPPER_TARGET MIOpen PRIVATE_TARGET MIOpen_private)" in src,
           "wrapper created")
    expect(src.index("miopen_wrap_adopt_wrapper") < src.index("rocm_install_targets"),
           "wrapper created before the install")
    include_at = src.index("include(${MIOPEN_WRAP_SOURCE_DIR}/src_patches/cmake/MIOpenWrapAdopt.cmake)")
    expect(include_at < src.index("if(FIXTURE_OPTION)"), "helper included before the block holding add_library")
    expect('set(MIOPEN_WRAP_SOURCE_DIR "/fixture/wrap" CACHE PATH' in src, "repository path recorded")
    expect(src.count("TARGETS MIOpen MIOpen_private") == 2, "install and export carry both libraries")
    expect("# a comment that mentions add_library(MIOpen) must not count" in src, "comments untouched")
    expect("PRIVATE MIOpen_private fixture::ck" in ck, "CK plugin links MIOpen_private instead of MIOpen")
    expect("target_link_libraries(${name} MIOpen_with_plugins MIOpen_private fixture::gtest)" in tst,
           "internal tests also link MIOpen_private")
    expect("target_link_libraries(public_only_test fixture::other)" in tst, "unrelated test untouched")
    if shutil.which("cmake"):
        for rel in ("src/CMakeLists.txt", "src/ck_impl/CMakeLists.txt", "test/CMakeLists.txt"):
            p = work / "parse.cmake"
            p.write_text("if(FALSE)\n" + (tree / rel).read_text() + "\nendif()\n")
            c = subprocess.run(["cmake", "-P", str(p)], capture_output=True, text=True)
            expect(c.returncode == 0, f"cmake parses the edited {rel}", c.stderr)
    after = snapshot(tree)
    r2 = run(tree, "--wrap-source-dir", "/fixture/wrap")
    expect(r2.returncode == 0 and "already applied; nothing changed" in r2.stdout,
           "second run: says nothing changed", r2.stdout + r2.stderr)
    expect(snapshot(tree) == after, "second run: tree byte-identical")
    r3 = run(tree, "--check", "--wrap-source-dir", "/fixture/wrap")
    expect(r3.returncode == 0, "--check after applying: nothing due", r3.stdout)
    fresh = work / "fixture-check"
    write(fresh, {"src/CMakeLists.txt": SRC_OK})
    r4 = run(fresh, "--check")
    expect(r4.returncode == 1 and snapshot(fresh) == {"src/CMakeLists.txt": SRC_OK,
                                                      "src/include/miopen/logger.hpp": LOGGER},
           "--check on an unpatched tree: exit 1, nothing written", r4.stdout + r4.stderr)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=["missing-anchor", "fixture", "all"])
    ap.add_argument("--work", type=Path, required=True)
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    if a.what in ("missing-anchor", "all"):
        missing_anchor(a.work)
    if a.what in ("fixture", "all"):
        fixture(a.work)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
