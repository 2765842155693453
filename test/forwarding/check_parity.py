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

  check_parity.py --consumer BIN --backend-dir DIR [--corrupt N]

--corrupt N changes the status of the enabled run's N-th case before the
comparison: the negative control, which must fail.
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import HIPDNN, PRIVATE, forwarding_set, run as run_scrubbed, trace, user_db  # noqa: E402

# The per-case marker on stderr, named after the consumer (set in main).
MARK = "parity_consumer: case "
LINE = re.compile(r"^(\S+) (\S+) (.*) status=(-?\d+) out=(\S+)$")
# A valid call MIOpen has no kernel for: miopenStatusUnsupportedOp there, success forwarded.
NO_KERNEL, UNSUPPORTED_OP = "valid where MIOpen has no kernel", 8


def run(consumer, env):
    """One run, with user databases of its own: what MIOpen's Find records in
    one run must not change the solutions the next one lists."""
    with user_db(cache_too=True) as db:
        p = run_scrubbed([consumer], dict(env, **db), timeout=300)
    return p.returncode, p.stdout.splitlines(), p.stderr.splitlines()


def per_case_traces(err):
    """marker -> the forwarding-set trace lines (entry, target) that follow it."""
    out, current = collections.OrderedDict(), None
    for line in err:
        if line.startswith(MARK):
            current = line[len(MARK):]
            out[current] = []
        elif current is not None and (t := trace(line)) and t.entry in forwarding_set():
            out[current].append((t.entry, t.target))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--corrupt", type=int, help="negative control: change the N-th enabled case's status")
    a = ap.parse_args()
    global MARK
    MARK = f"{os.path.basename(a.consumer)}: case "
    problems = []

    rc_off, off, _ = run(a.consumer, {"MIOPEN_HIPDNN_FORWARDING": "disabled"})
    rc_on, on, err = run(a.consumer, {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
                                      "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir})
    if rc_off != 0:
        problems.append(f"the disabled run exited {rc_off}: a case meant to be invalid succeeded on MIOpen")
    if a.corrupt is not None and a.corrupt < len(on):
        on[a.corrupt] = re.sub(r"status=(-?\d+)", lambda m: f"status={int(m.group(1)) + 1}", on[a.corrupt])
    cases = [LINE.match(l) for l in off]
    if not off or None in cases:
        sys.exit("FAIL: unreadable consumer output:\n" + "\n".join(off[:20]))
    if len(on) != len(off):
        problems.append(f"{len(off)} cases disabled, {len(on)} enabled (exit status {rc_on})")
    traces = per_case_traces(err)
    counts = collections.Counter()
    for i, (m, on_line) in enumerate(zip(cases, on)):
        direction, entry, label, status = m.group(1), m.group(2), m.group(3), int(m.group(4))
        key = f"{direction} {entry} {label}"
        valid, declined_valid = label.startswith("valid"), label.startswith("declined")
        if not valid and not declined_valid and status == 0:
            problems.append(f"{key}: meant to be invalid, but MIOpen accepts it (status 0)")
        if label.startswith(NO_KERNEL):
            on_case = LINE.match(on_line)
            if status != UNSUPPORTED_OP or not on_case or int(on_case.group(4)) != 0:
                problems.append(f"{key}: expected status {UNSUPPORTED_OP} disabled and 0 enabled: "
                                f"`{off[i]}` / `{on_line}`")
        elif on_line != off[i]:
            problems.append(f"{key}: disabled `{off[i]}` but enabled `{on_line}`")
        targets = [t for _, t in traces.get(key, [])]
        if not targets:
            problems.append(f"{key}: no routing-trace line of a forwarding-set call")
        elif valid and not all(t == HIPDNN for t in targets):
            problems.append(f"{key}: a valid call was not forwarded ({targets})")
        elif not valid and not all(t == PRIVATE for t in targets):
            problems.append(f"{key}: an invalid call was not left to MIOpen Private ({targets})")
        counts["valid (forwarded)" if valid else "valid (declined)" if declined_valid else "invalid (declined)"] += 1
        counts[f"entry {direction} {entry}"] += 1
    entries = sorted(k for k in counts if k.startswith("entry "))
    summary = ", ".join(f"{counts[k]} {k}" for k in ("invalid (declined)", "valid (forwarded)", "valid (declined)"))
    print(f"check_parity: {len(cases)} cases over {len(entries)} entry points x directions: {summary}")
    for p in problems[:40]:
        print(f"  {p}")
    if problems:
        print(f"FAIL: {len(problems)} parity problem(s)")
        return 1
    print("ok: every invalid call gets MIOpen's status and outputs with forwarding enabled")
    return 0


if __name__ == "__main__":
    sys.exit(main())
