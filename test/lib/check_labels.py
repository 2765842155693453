#!/usr/bin/env python3
"""Every CTest of the build has a label (test/lib/MIOpenWrapTests.cmake,
docs/testing.md), so running by label (`ctest -L forwarding`) leaves no test
out of every selection. Reads `ctest --show-only=json-v1` of the build tree.

  check_labels.py --ctest CTEST --build-dir DIR [--ignore-label LABEL]

--ignore-label: the negative control; the tests that carry only that label
must then be reported unlabelled.
"""
import argparse
import collections
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wrapper_test import verdict  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ctest", required=True)
    ap.add_argument("--build-dir", required=True)
    ap.add_argument("--ignore-label", action="append", default=[])
    a = ap.parse_args()
    p = subprocess.run([a.ctest, "--test-dir", a.build_dir, "--show-only=json-v1"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"FAIL: ctest --show-only exited {p.returncode}: {p.stderr[-2000:]}")
    tests = json.loads(p.stdout)["tests"]
    by_label, unlabelled = collections.Counter(), []
    for t in tests:
        labels = []
        for prop in t.get("properties", []):
            if prop["name"] == "LABELS":
                labels = [label for label in prop["value"] if label not in a.ignore_label]
        by_label.update(labels)
        if not labels:
            unlabelled.append(t["name"])
    if len(tests) < 50:
        return verdict("check_labels", [f"ctest lists only {len(tests)} tests (is {a.build_dir} built?)"])
    print(f"{len(tests)} tests; by label: " + ", ".join(f"{k} {v}" for k, v in sorted(by_label.items())))
    problems = [f"{len(unlabelled)} test(s) without a label: {', '.join(unlabelled)}"] if unlabelled else []
    return verdict("check_labels", problems)


if __name__ == "__main__":
    sys.exit(main())
