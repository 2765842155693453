#!/usr/bin/env python3
"""The wrapper against a hostile hipDNN backend (issue 34; RFC 0001 §6.1).

test/mini-hipdnn/hostile/hostile_backend.c stands in for libhipdnn_backend.so
and spoils one kind of answer per mode (out-of-range counts, oversized or
missing strings, null handles and descriptors, wrong attribute types, late
failures). For each mode threads_stress (one thread, one round: a legacy
convolution, a descriptor change, a Find 2.0 search, save, load and run, a
fusion plan) runs with forwarding enabled. Each mode must:

* end normally: no signal, no hang, no sanitizer report;
* never have a panic caught at the C ABI (a panic there is a bug, even caught);
* never report success with a wrong result;
* decline (MIOpen Private then answers) or report: a call that fails must be
  reported on stderr as §6.1 asks (the wrapper's error line at MIOpen's
  default log level, or its "unavailable" diagnostic);
* with mode `none` (the positive control) fail nothing.

Negative control: --log-level 2 silences the wrapper's error lines (as it
silences MIOpen's), so every failure is unreported and the check must say so.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import WRAPPER, environment  # noqa: E402

MODES = ("none", "count-huge", "count-negative", "count-over", "workspace-huge", "workspace-negative",
         "null-handle", "null-descriptor", "wrong-type", "late-finalize", "late-execute", "long-strings",
         "null-strings", "long-version")
FAILED_CALL = re.compile(r"^threads_stress: (.+): status (-?\d+)$")
REPORT = f"{WRAPPER} error"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True, help="threads_stress")
    ap.add_argument("--hostile-dir", required=True, help="the directory of the hostile libhipdnn_backend.so")
    ap.add_argument("--real-backend", required=True, help="the real libhipdnn_backend.so it passes calls to")
    ap.add_argument("--modes", default=",".join(MODES))
    ap.add_argument("--log-level", help="MIOPEN_LOG_LEVEL (the negative control sets 2)")
    ap.add_argument("--timeout", type=float, default=300)
    a = ap.parse_args()

    problems = []
    for mode in a.modes.split(","):
        extra = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": a.hostile_dir,
                 "HOSTILE_HIPDNN_REAL": a.real_backend, "HOSTILE_HIPDNN_MODE": mode,
                 "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": "MINI_REFERENCE_ENGINE"}
        if a.log_level:
            extra["MIOPEN_LOG_LEVEL"] = a.log_level
        try:
            p = subprocess.run([a.binary, "1", "1"], env=environment(extra), capture_output=True, text=True,
                               errors="replace", timeout=a.timeout)
        except subprocess.TimeoutExpired:
            problems.append(f"{mode}: hung past {a.timeout:.0f} s")
            continue
        err = p.stderr.splitlines()
        failed = [m.group(1) for m in map(FAILED_CALL.match, err) if m]
        reports = [l for l in err if l.startswith(REPORT)]
        print(f"{mode}: exit {p.returncode}, {len(failed)} failed call(s), {len(reports)} report(s)"
              + (f"; first: {reports[0][:160]}" if reports else ""))
        if p.returncode not in (0, 1) or "Sanitizer" in p.stderr:
            problems.append(f"{mode}: crashed (exit {p.returncode}): {p.stderr[-600:]}")
            continue
        if "panic in the forwarding layer" in p.stderr:
            problems.append(f"{mode}: a panic was caught at the C ABI")
        wrong = [f for f in failed if f.endswith("result")]
        if wrong:
            problems.append(f"{mode}: success with a wrong result: {wrong}")
        if mode == "none" and failed:
            problems.append(f"none: {len(failed)} call(s) failed against the unspoiled backend: {failed}")
        elif failed and not reports:
            problems.append(f"{mode}: {len(failed)} call(s) failed without a report: {failed}")
    for p in problems:
        print(f"FAIL: {p}")
    if not problems:
        print(f"PASS: {len(a.modes.split(','))} hostile mode(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
