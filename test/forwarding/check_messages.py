#!/usr/bin/env python3
"""What an on-call engineer reads (issue 32): the wrapper's lines, checked
through the installed tree.

  check_messages.py summary --find2-consumer C --fusion-consumer F [--corrupt-order | --corrupt-label]
      MIOPEN_HIPDNN_EXIT_SUMMARY=1 with forwarding enabled over Find 2.0
      (find2_consumer sequence: searches declined for several causes) and
      fusion plans (find2_fusion_consumer): every row's outcome is one of the
      summary's vocabulary; the Find 2.0 problem calls and every hook called
      (the fusion-plan construction calls among them) are `recorded`, none
      `not in the set`; the declined calls' causes are grouped by entry point
      (the one with the most first) and sorted by count; the plan cache's
      counters over the run and what it holds at exit are two lines.
      --corrupt-order reverses the causes, --corrupt-label gives the hooks'
      rows the label they had before (negative controls: must fail).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import (EXIT_SUMMARY, PLAN_CACHE_AT_EXIT, PLAN_CACHE_RUN, SUMMARY_NOT_IN_SET,  # noqa: E402
                          SUMMARY_OUTCOMES, SUMMARY_RECORDED, checked, facts, fail, lines_of, run, summary_causes,
                          summary_rows)

ENGINE = {"HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": "MINI_REFERENCE_ENGINE"}
FIND2_RECORDED = ("miopenCreateConvProblem", "miopenSetProblemTensorDescriptor", "miopenCreateFindOptions")


def enabled(a, extra=None):
    return {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir, **ENGINE,
            **(extra or {})}


def summary_of(cmd, env):
    p = run(cmd, env, timeout=300)
    if p.returncode != 0:
        fail(f"{os.path.basename(cmd[0])}: exit {p.returncode}: {p.stderr[-500:]}")
    lines = lines_of(p.stderr)
    start = [i for i, l in enumerate(lines) if l.startswith(EXIT_SUMMARY)]
    if len(start) != 1:
        fail(f"{os.path.basename(cmd[0])}: {len(start)} exit summaries, expected 1")
    return lines[start[0]:]


def corrupted(lines, a):
    """The summary as a negative control changes it."""
    if a.corrupt_order:
        causes = [i for i, l in enumerate(lines) if l.startswith("    miopen")]
        picked = [lines[i] for i in causes][::-1]
        lines = list(lines)
        for i, l in zip(causes, picked):
            lines[i] = l
    if a.corrupt_label:
        hooks = {h["entry_point"] for h in facts()["hooks"]}
        lines = [l.replace(SUMMARY_RECORDED, "MIOpen Private (not in the forwarding set)")
                 if l.split()[:1] and l.split()[0] in hooks else l for l in lines]
    return lines


def check_vocabulary(name, rows):
    return [f"{name}: {entry}: outcome {outcome!r} is not one of the summary's {SUMMARY_OUTCOMES}"
            for (entry, outcome) in rows if outcome not in SUMMARY_OUTCOMES]


def check_recorded(name, rows, recorded):
    """Each of `recorded` called is counted `recorded`, none `not in the set`."""
    problems = []
    seen = {entry for (entry, _) in rows}
    for entry in sorted(recorded & seen):
        if (entry, SUMMARY_RECORDED) not in rows:
            got = [o for (e, o) in rows if e == entry]
            problems.append(f"{name}: {entry}: {got}, expected {SUMMARY_RECORDED!r}")
    forwarding = {r["entry_point"] for r in facts()["forwarding_table"]}
    for (entry, outcome) in rows:
        if outcome == SUMMARY_NOT_IN_SET and (entry in recorded or entry in forwarding):
            problems.append(f"{name}: {entry} is counted {SUMMARY_NOT_IN_SET!r} but the wrapper sees its calls")
    return problems, len(recorded & seen)


def check_causes(name, causes):
    if len(causes) < 2:
        return [f"{name}: {len(causes)} cause line(s): the order cannot be seen (expected at least 2)"]
    totals = {}
    for entry, n, _ in causes:
        totals[entry] = totals.get(entry, 0) + n
    want = sorted(causes, key=lambda c: (-totals[c[0]], c[0], -c[1], c[2]))
    if causes != want:
        first = next(i for i, (g, w) in enumerate(zip(causes, want)) if g != w)
        return [f"{name}: the causes are not grouped by entry point and sorted by count: line {first} is "
                f"{causes[first]}, expected {want[first]}"]
    return []


def check_plan_cache(name, lines):
    if not any(PLAN_CACHE_RUN.match(l) for l in lines) or not any(PLAN_CACHE_AT_EXIT.match(l) for l in lines):
        return [f"{name}: no 'plan cache over the run' and 'plan cache at exit' lines: {lines[-4:]}"]
    return []


def summary(a):
    problems = []
    hooks = {h["entry_point"] for h in facts()["hooks"]}
    recorded = hooks | set(FIND2_RECORDED)
    with tempfile.TemporaryDirectory(prefix="messages-") as work:
        runs = {
            "find2 sequence": [a.find2_consumer, "sequence"],
            "find2 and fusion": [a.fusion_consumer, os.path.join(work, "out.bin")],
        }
        seen_recorded, all_causes = 0, 0
        for name, cmd in runs.items():
            lines = corrupted(summary_of(cmd, enabled(a, {"MIOPEN_HIPDNN_EXIT_SUMMARY": "1"})), a)
            rows, causes = summary_rows(lines), summary_causes(lines)
            problems += check_vocabulary(name, rows)
            found, n = check_recorded(name, rows, recorded)
            problems += found
            seen_recorded += n
            if name == "find2 sequence":
                problems += check_causes(name, causes)
            problems += check_plan_cache(name, lines)
            all_causes += len(causes)
            print(f"{name}: {len(rows)} rows, {len(causes)} cause lines")
    if seen_recorded < 5:
        problems.append(f"only {seen_recorded} recorded entry points called (the check cannot see the label)")
    print(f"{seen_recorded} recorded entry points, {all_causes} cause lines checked")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=("summary",))
    ap.add_argument("--find2-consumer", required=True)
    ap.add_argument("--fusion-consumer", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--corrupt-order", action="store_true")
    ap.add_argument("--corrupt-label", action="store_true")
    a = ap.parse_args()
    return checked("check_messages", lambda: {"summary": summary}[a.check](a))


if __name__ == "__main__":
    sys.exit(main())
