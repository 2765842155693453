#!/usr/bin/env python3
"""Test adopt_real_miopen: `miopen-wrap adopt` on a copy of a real MIOpen tree,
its report checked against the expected numbers (real-tree-expected.json).

The tree comes from --tree (the CMake cache variable
MIOPEN_WRAP_REAL_MIOPEN_TREE) or else the environment variable of the same
name. Without one the test exits 77, which CTest reports as skipped.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

SKIP = 77


def compare(expected, actual, where: str, problems: list[str]) -> None:
    """Every key of `expected` must be in `actual` with the same value (sets
    of names compared without order)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            problems.append(f"{where}: expected an object, got {actual!r}")
            return
        for k, v in expected.items():
            compare(v, actual.get(k), f"{where}.{k}" if where else k, problems)
    elif isinstance(expected, list):
        if sorted(map(str, expected)) != sorted(map(str, actual or [])):
            problems.append(f"{where}: expected {expected}, got {actual}")
    elif expected != actual:
        problems.append(f"{where}: expected {expected!r}, got {actual!r}")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--miopen-wrap", required=True)
    ap.add_argument("--tree", default="")
    ap.add_argument("--expected", type=Path, required=True)
    ap.add_argument("--work-dir", type=Path, required=True)
    ap.add_argument("--cargo-target-dir", type=Path)
    a = ap.parse_args()
    tree = a.tree or os.environ.get("MIOPEN_WRAP_REAL_MIOPEN_TREE", "")
    if not tree:
        print("SKIPPED: no MIOpen tree; set -DMIOPEN_WRAP_REAL_MIOPEN_TREE=<checkout> or the environment "
              "variable MIOPEN_WRAP_REAL_MIOPEN_TREE to run this test")
        return SKIP
    expected_file = Path(os.environ.get("MIOPEN_WRAP_REAL_MIOPEN_EXPECT", a.expected))
    expected = json.loads(expected_file.read_text())
    expected.pop("about", None)
    cmd = [a.miopen_wrap, "adopt", tree, "--work-dir", str(a.work_dir), "--report", "json"]
    if a.cargo_target_dir:
        cmd += ["--cargo-target-dir", str(a.cargo_target_dir)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    sys.stderr.write(r.stderr)
    if r.returncode not in (0, 1):
        print(f"miopen-wrap adopt could not run (exit {r.returncode})")
        return 1
    report = json.loads(r.stdout)
    problems: list[str] = []
    if not report.get("ok"):
        problems.append("the adoption failed: " + ", ".join(
            f"{k}={v['status']}" for k, v in report.get("steps", {}).items()))
    compare(expected, report, "", problems)
    for p in problems:
        print("FAIL " + p)
    print(f"real tree {tree}: {'matches' if not problems else 'does not match'} {expected_file}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
