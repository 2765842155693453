#!/usr/bin/env python3
"""The forwarding handlers are compiled against the header being built.

For each variant of the test bed's miopen.h (a copy with one change), runs
`miopen-wrap generate` on it and `cargo check` of the runtime crate with the
generated stubs, as a wrapper build does, and requires:

  unchanged               builds
  field moved             builds, and the handlers' miopenConvAlgoPerf_t has
                          `memory` before `time`, as the changed header does
                          (the handlers use the header's layout, whatever it is)
  field retyped           fails: `memory` is an int (the Find handler writes a size)
  parameter retyped       fails: requestAlgoCount of miopenFindConvolutionForward-
                          Algorithm is a size_t (the handler takes MIOpen's int)
  getter retyped          fails: miopenGetTensorDescriptorSize writes a size_t
  enumerator renumbered   fails: miopenBFloat16 is 4, forwarding-core maps 5
  survivor call retyped   fails: a definition of miopenHiddenGetConvolutionFindMode_impl
                          taking `long*` meets the generated survivor_calls_check.h
                          (C++ compile, as the private library's source is compiled)

  check_header_ties.py --miopen-wrap BIN --repo DIR --work DIR --cxx CXX
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from expectations import expect, failures  # noqa: E402

PERF_TIME = "    float time;    /*!< measured (or find-db recorded) time in milliseconds */\n"
PERF_MEMORY = "    size_t memory; /*!< workspace bytes the algorithm needs */\n"

# name -> (replacements (old, new), None if the build must pass else a regex its errors must match)
VARIANTS = {
    "unchanged": ([], None),
    "field moved": ([(PERF_TIME + PERF_MEMORY, PERF_MEMORY + PERF_TIME)], None),
    "field retyped": ([(PERF_MEMORY, PERF_MEMORY.replace("size_t memory", "int memory"))], r"mismatched types"),
    "parameter retyped": ([("                                      const int requestAlgoCount,\n",
                            "                                      const size_t requestAlgoCount,\n")],
                          r"mismatched types"),
    "getter retyped": ([("miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,\n"
                         "                                                           int* size);",
                         "miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc,\n"
                         "                                                           size_t* size);")],
                       r"mismatched types"),
    "enumerator renumbered": ([("    miopenBFloat16 = 5,", "    miopenBFloat16 = 4,")],
                              r"miopenBFloat16 in miopen\.h is not 5"),
}
SURVIVORS = ["miopenHiddenGetConvolutionFindMode", "miopenHiddenSetConvolutionFindMode",
             "miopen_mini_finddb_format_init"]



def generate(a, variant: str, edits) -> Path:
    root = a.work / re.sub(r"\W+", "-", variant)
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(a.repo / "test/mini-miopen/include", root / "include")
    header = root / "include/miopen/miopen.h"
    text = header.read_text()
    for old, new in edits:
        if text.count(old) < 1:
            sys.exit(f"{variant}: the test bed's miopen.h no longer has {old!r}; update this test")
        text = text.replace(old, new, 1)
    header.write_text(text)
    standin = a.repo / "src_patches/standin"
    cmd = [a.miopen_wrap, "generate", "--header", header, "-I", root / "include", "-I", standin / "miopen-include",
           "-I", standin / "hip-include", "--version-node", "MIOPEN_HIP_1", "--out-dir", root / "generated"]
    for s in SURVIVORS:
        cmd += ["--survivor", s]
    r = subprocess.run([str(c) for c in cmd], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{variant}: miopen-wrap generate failed:\n{r.stdout}{r.stderr}")
    return root / "generated"


def cargo_check(a, generated: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, MIOPEN_WRAP_GENERATED_DIR=str(generated), CARGO_TARGET_DIR=str(a.work / "cargo-target"))
    return subprocess.run(["cargo", "check", "--quiet", "-j", "2", "-p", "miopen-abi-runtime",
                           "--manifest-path", str(a.repo / "Cargo.toml")], env=env, capture_output=True, text=True)


def perf_fields(bindings: Path) -> list[str]:
    m = re.search(r"pub struct miopenConvAlgoPerf_t \{(.*?)\}", bindings.read_text(), re.S)
    return re.findall(r"pub (\w+):", m.group(1)) if m else []


def survivor_call_check(a, generated: Path) -> None:
    """The generated prototypes against a definition, as MIOpen's source sees them."""
    body = ("extern \"C\" miopenStatus_t miopenHiddenGetConvolutionFindMode_impl(miopenConvolutionDescriptor_t, {t}* m)"
            " {{ *m = 0; return miopenStatusSuccess; }}\n")
    standin = a.repo / "src_patches/standin"
    for ty, must_compile in (("int", True), ("long", False)):
        src = a.work / f"survivor_{ty}.cpp"
        src.write_text(body.format(t=ty))
        r = subprocess.run([a.cxx, "-std=c++17", "-fsyntax-only", "-include",
                            str(generated / "include/miopen_wrap/survivor_calls_check.h"),
                            "-I", str(a.repo / "test/mini-miopen/include"), "-I", str(standin / "miopen-include"),
                            "-I", str(standin / "hip-include"), str(src)], capture_output=True, text=True)
        if must_compile:
            expect(r.returncode == 0, "survivor call: MIOpen's definition (int*) compiles against the check",
                   r.stderr)
        else:
            expect(r.returncode != 0 and "conflicting declaration" in r.stderr,
                   "survivor call retyped: a definition taking long* does not compile", r.stderr)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--miopen-wrap", type=Path, required=True)
    ap.add_argument("--repo", type=Path, required=True)
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--cxx", default="c++")
    a = ap.parse_args()
    a.work.mkdir(parents=True, exist_ok=True)
    for variant, (edits, error) in VARIANTS.items():
        generated = generate(a, variant, edits)
        r = cargo_check(a, generated)
        if error is None:
            expect(r.returncode == 0, f"{variant}: the runtime crate builds", r.stderr)
        else:
            expect(r.returncode != 0 and re.search(error, r.stderr) is not None,
                   f"{variant}: the runtime crate does not build ({error})", r.stderr)
        if variant == "field moved":
            fields = perf_fields(generated / "bindings.rs")
            expect(fields == ["__bindgen_anon_1", "memory", "time"],
                   "field moved: the handlers' miopenConvAlgoPerf_t follows the header", repr(fields))
        if variant == "unchanged":
            survivor_call_check(a, generated)
    print(f"{len(failures)} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
