#!/usr/bin/env python3
"""Argument parity: a call MIOpen Private rejects gets MIOpen's status, and
leaves MIOpen's outputs, with forwarding enabled too.

Runs test/consumers/parity_consumer, or fusion_parity_consumer (invalid calls for every entry point of
the forwarding set, each with a valid twin) with forwarding disabled and
enabled, and requires
  * the disabled run: every case not labelled valid/declined is rejected
    (status != 0), so each case tests something;
  * both runs: the same stdout, case by case (status, and the FNV hash of
    every buffer and out-parameter the call may write), except for a case
    labelled `valid where MIOpen has no kernel`: MIOpen answers
    miopenStatusUnsupportedOp (its one-call conv + bias + activation has no
    fused solver) and the forwarded call succeeds;
  * the enabled run's routing trace: every `valid` case forwarded to hipDNN
    (forwarding is on for that entry point), every other case declined to
    MIOpen Private.

  check_parity.py --consumer BIN --backend-dir DIR [--provider-dir DIR] [--corrupt N]

--provider-dir DIR runs the enabled run on the MIOpen provider engine
(HIPDNN_PLUGIN_DIR=DIR) instead of the reference engine.

--corrupt N changes the status of the enabled run's N-th case before the
comparison: the negative control, which must fail.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import HIPDNN, PRIVATE, checked, environment, forwarding_set, trace, user_db  # noqa: E402

# A valid call MIOpen has no kernel for: miopenStatusUnsupportedOp there, success forwarded.
NO_KERNEL, UNSUPPORTED_OP = "valid where MIOpen has no kernel", 8


def run(name, consumer, env):
    """One run, with user databases of its own: what MIOpen's Find records in
    one run must not change the solutions the next one lists."""
    with user_db(cache_too=True) as db:
        return Run.of_command(name, [consumer], environment(dict(env, **db)), timeout=300)


def targets(run, case):
    """The targets of the forwarding-set trace lines after the case's marker."""
    return [t.target for t in map(trace, run.segments.get(case, [])) if t and t.entry in forwarding_set()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--provider-dir", help="HIPDNN_PLUGIN_DIR of the MIOpen provider engine for the enabled run")
    ap.add_argument("--corrupt", type=int, help="negative control: change the N-th enabled case's status")
    a = ap.parse_args()
    return checked("check_parity", lambda: compare(a))


def compare(a):
    problems = []
    off = run("disabled", a.consumer, {"MIOPEN_HIPDNN_FORWARDING": "disabled"})
    env_on = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
              "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    if a.provider_dir:
        env_on["HIPDNN_PLUGIN_DIR"] = a.provider_dir
    on = run("enabled", a.consumer, env_on)
    if off.returncode != 0:
        problems.append(f"the disabled run exited {off.returncode}: a case meant to be invalid succeeded on MIOpen")
    cases, enabled = off.of("case"), on.of("case")
    if a.corrupt is not None and a.corrupt < len(enabled):
        enabled[a.corrupt] = dict(enabled[a.corrupt], status=enabled[a.corrupt]["status"] + 1)
    if not cases:
        return [f"no case records from the disabled run:\n{off.stdout[-2000:]}"]
    if len(enabled) != len(cases):
        problems.append(f"{len(cases)} cases disabled, {len(enabled)} enabled (exit status {on.returncode})")
    counts = collections.Counter()
    for c, e in zip(cases, enabled):
        key, label, status = c["case"], c["label"], c["status"]
        valid, declined_valid = label.startswith("valid"), label.startswith("declined")
        if not valid and not declined_valid and status == 0:
            problems.append(f"{key}: meant to be invalid, but MIOpen accepts it (status 0)")
        if label.startswith(NO_KERNEL):
            if status != UNSUPPORTED_OP or e["case"] != key or e["status"] != 0:
                problems.append(f"{key}: expected status {UNSUPPORTED_OP} disabled and 0 enabled: `{c}` / `{e}`")
        elif e != c:
            problems.append(f"{key}: disabled `{c}` but enabled `{e}`")
        got = targets(on, key)
        if not got:
            problems.append(f"{key}: no routing-trace line of a forwarding-set call")
        elif valid and not all(t == HIPDNN for t in got):
            problems.append(f"{key}: a valid call was not forwarded ({got})")
        elif not valid and not all(t == PRIVATE for t in got):
            problems.append(f"{key}: an invalid call was not left to MIOpen Private ({got})")
        counts["valid (forwarded)" if valid else "valid (declined)" if declined_valid else "invalid (declined)"] += 1
        counts[f"entry {c['dir']} {c['entry']}"] += 1
    entries = sorted(k for k in counts if k.startswith("entry "))
    summary = ", ".join(f"{counts[k]} {k}" for k in ("invalid (declined)", "valid (forwarded)", "valid (declined)"))
    print(f"check_parity: {len(cases)} cases over {len(entries)} entry points x directions: {summary}")
    if problems:
        problems.append(f"{len(problems)} parity problem(s)")
    else:
        print("ok: every invalid call gets MIOpen's status and outputs with forwarding enabled")
    return problems


if __name__ == "__main__":
    sys.exit(main())
