#!/usr/bin/env python3
"""Test real_miopen_compare_logs: compare_logs.py, which the real-MIOpen check
uses on MIOpen's own log, on small logs shaped like real MIOpen 3.3.0's
(taken apart from a HIPNOGPU run): it passes what the adoption may change and
fails on what it must not."""
from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "lib"))
from wrapper_test import PRIVATE, TRACE_LINE, WRAPPER, verdict  # noqa: E402
PRE, ADOPT = "/w/pre", "/w/adopt"


def log(side: str, run: int, name: str = "miopenCreateTensorDescriptor", line_no: int = 312,
        lib: str = "libMIOpen.so.1.0", extra: list[str] | None = None) -> str:
    addr = ["0x561baec0b9f0", "0x7fd7eb9f2760", "0x55e68114f9f0"][run]
    # the same in both pre-wrapper runs, as happens: still not compared
    same_addr, same_time = ["0x55c8c81ad173", "0x55c8c81ad173", "0x5597a549e173"][run], ["171", "171", "451"][run]
    garbage = ["-4.19776e+09", "-1.82351e+19", "7.5e-3"][run]
    lines = [
        f"MIOpen(HIP): miopenStatus_t {name}(miopenTensorDescriptor_t *){{",
        f"MIOpen(HIP): \ttensorDesc = {addr}",
        "MIOpen(HIP): }",
        f"MIOpen(HIP): \tsoftmaxDesc = softmax,alpha{garbage},beta3.0893e-41,algorithm0,mode0,",
        f"MIOpen(HIP): Info2 [GetLibPath] Lib Path: \"{side}/install/lib/{lib}\"",
        f"MIOpen(HIP): Info [Measure] RamDb::Prefetch time: 0.0{run + 3}0467 ms",
        f"MIOpen(HIP): Info [Prefetch] File is unreadable: \"/w/cons/db{run}/_0.HIPNOGPU.3_3_0_.ufdb.txt\"",
        f"MIOpen Error: {side}/tree/src/tensor.cpp:{line_no}: Invalid tensor",
        f"MIOpen(HIP): \tconvDesc = {same_addr}",
        f"MIOpen(HIP): Info [Measure] ReadonlyRamDb::Prefetch time: 0.000{same_time} ms",
        f"consumer: VmHWM:\t   {16452 + 1000 * (run // 2)} kB",
    ]
    return "\n".join((extra or []) + lines) + "\n"


def compare(tmp: Path, base: str, again: str, adopted: str) -> subprocess.CompletedProcess:
    files = []
    for n, text in (("base", base), ("again", again), ("adopted", adopted)):
        f = tmp / f"{n}.log"
        f.write_text(text)
        files.append(str(f))
    replace = [f"--replace={PRE}/install=<install>", f"--replace={ADOPT}/install=<install>",
               f"--replace={PRE}/tree=<tree>", f"--replace={ADOPT}/tree=<tree>"]
    replace += [f"--replace=/w/cons/db{i}=<db>" for i in range(3)]
    return subprocess.run([sys.executable, "-B", str(HERE / "compare_logs.py"), "--baseline", files[0],
                           "--baseline-again", files[1], "--adopted", files[2], *replace],
                          capture_output=True, text=True)


def main() -> int:
    wrapper = [f"{WRAPPER} forwarding disabled (MIOPEN_HIPDNN_FORWARDING is unset (default))",
               TRACE_LINE.format(entry="miopenCreateTensorDescriptor", family="tensor", target=PRIVATE,
                                 reason="forwarding disabled")]
    good_adopted = log(ADOPT, 2, lib="libMIOpen_private.so.1.0", extra=wrapper)
    cases = [
        ("the adopted log as the adoption leaves it", good_adopted, 0, "2 wrapper lines dropped"),
        ("an entry point logged under its _impl name",
         log(ADOPT, 2, name="miopenCreateTensorDescriptor_impl", lib="libMIOpen_private.so.1.0"), 1, "line 1 differs"),
        ("a source line number moved by the rename",
         log(ADOPT, 2, line_no=313, lib="libMIOpen_private.so.1.0"), 1, "line 8 differs"),
        ("a line the wrapper does not own added", log(ADOPT, 2, lib="libMIOpen_private.so.1.0",
                                                      extra=["MIOpen(HIP): Info [Wrapper] extra"]), 1, "lines"),
        ("another library named by GetLibPath", log(ADOPT, 2, lib="libOther.so.1.0"), 1, "line 5 differs"),
    ]
    problems = []
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for what, adopted, want_rc, want_text in cases:
            r = compare(tmp, log(PRE, 0), log(PRE, 1), adopted)
            ok = r.returncode == want_rc and want_text in r.stdout
            print(f"{'ok  ' if ok else 'FAIL'} {what}: exit {r.returncode} (want {want_rc})")
            if not ok:
                problems.append(f"{what}: exit {r.returncode} (want {want_rc} and {want_text!r}):\n"
                                + r.stdout + r.stderr)
        # A difference between the two pre-wrapper runs in a line's words,
        # not only its numbers, is no licence: the shape must still agree.
        r = compare(tmp, log(PRE, 0), log(PRE, 1), good_adopted.replace("softmax,alpha", "softmax,gamma"))
        if not (r.returncode == 1 and "line 4 differs" in r.stdout):
            problems.append(f"a varying line with other words: exit {r.returncode} (want 1)")
    return verdict("test_compare_logs", problems)


if __name__ == "__main__":
    sys.exit(main())
