#!/usr/bin/env python3
"""Regression test of the pass-through hop, on instructions (callgrind), not
time: the wrapper's miopenGetVersion may cost at most --max-extra
instructions per call over the pre-wrapper library (its stub is
cmpb + jne + jmp: 3), and the bare tail-jump shim exactly its one jmp.
Exit 77 (CTest: skipped) when valgrind is missing."""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--max-extra", type=float, default=3)
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("SKIP: valgrind not found (scripts/setup-deps.sh installs it)")
        sys.exit(77)
    pt = os.path.join(a.bench_dir, "passthrough")
    base = measure.instructions_per_call(pt, {"LD_LIBRARY_PATH": a.baseline_dir})
    shim = measure.instructions_per_call(pt, {"LD_LIBRARY_PATH": os.path.join(a.bench_dir, "shim")})
    wrapper = measure.instructions_per_call(pt, {"MIOPEN_HIPDNN_FORWARDING": "disabled"})
    print(f"instructions per miopenGetVersion call: baseline {base:.2f}, shim {shim:.2f}, wrapper {wrapper:.2f}")
    if abs(shim - base - 1) > 0.05:
        sys.exit(f"FAIL: the tail-jump shim should cost exactly 1 instruction over the baseline, got {shim - base:+.2f}")
    if wrapper - base > a.max_extra + 0.05:
        sys.exit(f"FAIL: hop regression: the wrapper costs {wrapper - base:+.2f} instructions per call over the "
                 f"baseline (allowed {a.max_extra:+g})")
    print(f"PASS: wrapper {wrapper - base:+.2f} instructions per call over the baseline (allowed {a.max_extra:+g})")


if __name__ == "__main__":
    main()
