#!/usr/bin/env python3
"""Environment parsing, banner, first-call races and fork, seen from a consumer.

Runs runtime_consumer (linked against the installed libMIOpen.so) under a set
of environments and checks its exit status and stderr line by line. The same
expectations are also run against the pre-wrapper baseline library, where the
wrapper's lines must be absent: that proves the checks can fail.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import WRAPPER, run as run_scrubbed, verdict  # noqa: E402

BANNER = f"{WRAPPER} forwarding "
WARNING = f"{WRAPPER} warning: MIOPEN_HIPDNN_FORWARDING="
TRACE = f"{WRAPPER} miopen"


def run(consumer, mode, env_extra, lib_dir=None):
    env = dict(env_extra)
    if lib_dir:
        env["LD_LIBRARY_PATH"] = lib_dir
    p = run_scrubbed([consumer, mode], env, timeout=60)
    return p.returncode, p.stderr.splitlines()


def count(lines, prefix):
    return sum(1 for l in lines if l.startswith(prefix))


def cases():
    """(name, mode, env, expectations) -- expectation: prefix -> exact count."""
    return [
        ("default is silent", "once", {}, {BANNER: 0, WARNING: 0, TRACE: 0, "": 0}),
        ("explicit disabled is silent", "once", {"MIOPEN_HIPDNN_FORWARDING": "disabled"}, {"": 0}),
        ("enabled prints one banner", "once", {"MIOPEN_HIPDNN_FORWARDING": "enabled"},
         {BANNER + "enabled (MIOPEN_HIPDNN_FORWARDING=enabled)": 1, WARNING: 0}),
        ("unknown value warns once, no banner", "threads", {"MIOPEN_HIPDNN_FORWARDING": "yes"},
         {WARNING + '"yes" is not recognised; accepted values are `disabled` and `enabled`': 1, BANNER: 0}),
        ("64 racing threads, one banner", "threads", {"MIOPEN_HIPDNN_FORWARDING": "enabled"},
         {BANNER: 1}),
        ("info logging prints the banner and routing trace", "once", {"MIOPEN_LOG_LEVEL": "5"},
         {BANNER + "disabled (MIOPEN_HIPDNN_FORWARDING is unset (default))": 1,
          TRACE + "GetVersion [handle] -> MIOpen Private (forwarding disabled)": 1}),
        ("enabled routes to Private in phase 1", "once",
         {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5"},
         {TRACE + "Create [handle] -> MIOpen Private (not in the forwarding set)": 1}),
        ("call after fork: state inherited, one banner", "fork", {"MIOPEN_HIPDNN_FORWARDING": "enabled"},
         {BANNER: 1}),
        ("fork before first call: one banner per process", "forkfirst",
         {"MIOPEN_HIPDNN_FORWARDING": "enabled"}, {BANNER: 2}),
    ]


def check(consumer, lib_dir):
    failures = []
    for name, mode, env, expect in cases():
        rc, lines = run(consumer, mode, env, lib_dir)
        problems = []
        if rc != 0:
            problems.append(f"exit status {rc}")
        for prefix, n in expect.items():
            got = len(lines) if prefix == "" else count(lines, prefix)
            if got != n:
                problems.append(f"{n} line(s) starting {prefix!r} expected, got {got}")
        status = "ok" if not problems else "FAILED: " + "; ".join(problems)
        print(f"  [{mode:9}] {name}: {status}")
        if problems:
            failures.append((name, lines))
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--baseline-dir", help="directory holding the pre-wrapper libMIOpen.so.1")
    a = ap.parse_args()

    print("wrapper:")
    failures = check(a.consumer, None)
    problems = [f"{name}; its stderr:\n" + "\n".join(lines) for name, lines in failures]
    if a.baseline_dir:
        print("baseline (negative control: wrapper-specific expectations must fail):")
        base_failures = check(a.consumer, a.baseline_dir)
        expected_to_fail = [c[0] for c in cases() if any(k.startswith(WRAPPER) and v > 0
                                                          for k, v in c[3].items())]
        missing = sorted(set(expected_to_fail) - {f[0] for f in base_failures})
        if missing:
            problems.append(f"negative control did not fail for: {missing}")
    print(f"{len(cases()) - len(failures)} passed, {len(failures)} failed")
    return verdict("check_runtime", problems)


if __name__ == "__main__":
    sys.exit(main())
