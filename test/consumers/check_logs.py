#!/usr/bin/env python3
"""MIOpen's own logs are unchanged by the rename (issue 12 §1).

Runs consumers of the installed tree with MIOpen's most verbose logging
(MIOPEN_LOG_LEVEL=7, MIOPEN_ENABLE_LOGGING=1, MIOPEN_ENABLE_LOGGING_CMD=1)
against
  baseline  the pre-wrapper libMIOpen.so.1 (LD_LIBRARY_PATH)
  disabled  the wrapper, MIOPEN_HIPDNN_FORWARDING=disabled
  enabled   the wrapper, forwarding enabled but nothing forwarded
            (MIOPEN_DISABLE_HIPDNN_FOR=*)
and requires MIOpen's log lines (stderr without the wrapper's own
`MIOpen(hipDNN wrapper):` lines) byte-identical across the three, after
pointer values (0x...) are replaced by `0xPTR`. Each run starts from a copy
of one user db seeded by a first baseline run, so Find answers from the
find-db instead of from timings that differ from run to run.

--private-dir DIR puts DIR first on LD_LIBRARY_PATH for the wrapper runs (the
negative control: a libMIOpen_private.so.1 built without the logger edit);
the comparison must then fail and name the `_impl` lines.
"""
import argparse
import difflib
import os
import shutil
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import WRAPPER, checked, fail, run as run_scrubbed, user_db, without_pointers  # noqa: E402

LOUD = {"MIOPEN_LOG_LEVEL": "7", "MIOPEN_ENABLE_LOGGING": "1", "MIOPEN_ENABLE_LOGGING_CMD": "1"}


def run(cmd, env_extra, db_seed=None, keep_db=None):
    """One run with its own user db: a copy of `db_seed` when given (so Find
    answers from the find-db, not from timings that vary between runs);
    `keep_db` receives the db the run leaves."""
    with user_db(seed=db_seed, keep=keep_db) as db:
        p = run_scrubbed(cmd, dict(LOUD, **env_extra, **db))
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} failed (exit {p.returncode}) with {env_extra}:\n{p.stderr[-3000:]}")
    return p.stderr


def miopen_log(stderr):
    """MIOpen's lines with pointers removed, and the count of wrapper lines."""
    mine, wrapper = [], 0
    for line in stderr.splitlines(keepends=True):
        if line.startswith(WRAPPER):
            wrapper += 1
        else:
            mine.append(without_pointers(line))
    return "".join(mine), wrapper


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--private-dir", help="negative control: this libMIOpen_private.so.1 for the wrapper runs")
    ap.add_argument("command", nargs="+", help="consumer and its arguments ({out} is replaced by a file path)")
    a = ap.parse_args()
    return checked("check_logs", lambda: compare(a))


def compare(a):
    os.makedirs(a.out_dir, exist_ok=True)
    wrapper_path = {"LD_LIBRARY_PATH": a.private_dir} if a.private_dir else {}
    runs = {
        "baseline": {"LD_LIBRARY_PATH": a.baseline_dir},
        "disabled": dict(wrapper_path, MIOPEN_HIPDNN_FORWARDING="disabled"),
        "enabled": dict(wrapper_path, MIOPEN_HIPDNN_FORWARDING="enabled", MIOPEN_DISABLE_HIPDNN_FOR="*"),
    }
    logs, wrapper_lines = {}, {}
    seed = os.path.join(a.out_dir, "seeded-db")
    shutil.rmtree(seed, ignore_errors=True)
    warm_up = [c.replace("{out}", os.path.join(a.out_dir, "warm-up.bin")) for c in a.command]
    run(warm_up, runs["baseline"], keep_db=seed)
    for name, env in runs.items():
        cmd = [c.replace("{out}", os.path.join(a.out_dir, f"{name}.bin")) for c in a.command]
        logs[name], wrapper_lines[name] = miopen_log(run(cmd, env, db_seed=seed))
        with open(os.path.join(a.out_dir, f"{name}.log"), "w") as f:
            f.write(logs[name])

    base = logs["baseline"]
    if wrapper_lines["baseline"]:
        fail("the baseline run loaded the wrapper (LD_LIBRARY_PATH not honoured?)")
    calls = base.count("{\n")
    if calls < 10 or "Command [" not in base:
        fail(f"the baseline log has {calls} API call blocks and "
             f"{'a' if 'Command [' in base else 'no'} driver command: logging is not on")
    if not wrapper_lines["enabled"]:
        fail("the enabled run printed no routing trace at MIOPEN_LOG_LEVEL=7 (was the wrapper loaded?)")
    problems = []
    for name in ("disabled", "enabled"):
        if logs[name] == base:
            continue
        diff = list(difflib.unified_diff(base.splitlines(), logs[name].splitlines(), "baseline", name, lineterm="", n=0))
        impl = [l for l in diff if l.startswith("+") and "_impl" in l]
        problems.append(f"MIOpen's log differs: baseline vs {name} ({len(impl)} added line(s) name an _impl function)\n"
                        + "\n".join(diff[:20]))
    if problems:
        return problems
    print(f"MIOpen's log byte-identical (pointers removed) across baseline, disabled and enabled-not-forwarded: "
          f"{len(base.splitlines())} lines, {calls} API calls; the enabled run added {wrapper_lines['enabled']} "
          f"routing-trace lines of its own")


if __name__ == "__main__":
    sys.exit(main())
