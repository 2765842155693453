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

  check_messages.py refusals --find2-consumer C --provider-dir P [--drop-wrapper-errors]
      no call fails silently: a hipDNN solution run with one byte less
      workspace than it needs (find2_consumer short-workspace, on the MIOpen
      provider engine, whose plan needs workspace) is refused with
      miopenStatusBadParm and one error line saying what was wrong and what
      MIOpen says (`requires at least <n> workspace, while <n-1> was
      provided`, the words MIOpen's own run of its solution prints in the
      disabled run); at MIOpen's quiet levels (MIOPEN_LOG_LEVEL=1, 2) neither
      prints it; and every failing call of find2_consumer parity (null
      arguments, missing arguments, damaged blobs) has a line on stderr
      saying why, the wrapper's for the calls it refuses, MIOpen's for the
      calls it runs. --drop-wrapper-errors removes the wrapper's error lines
      (negative control: must fail).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import (EXIT_SUMMARY, MIOPEN_LOG, PLAN_CACHE_AT_EXIT, PLAN_CACHE_RUN,  # noqa: E402
                          SUMMARY_NOT_IN_SET, SUMMARY_OUTCOMES, SUMMARY_RECORDED, WRAPPER, checked, environment,
                          facts, fail, lines_of, run, summary_causes, summary_rows)

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


# --- refusals ---------------------------------------------------------------------
BAD_PARM = 3  # miopenStatusBadParm
ERROR = f"{WRAPPER} error: "
MIOPEN_ERROR = f"{MIOPEN_LOG}Error "  # the test bed's MIOpen reports a failing call so (its level Error)


def consumer_run(a, mode, env):
    p = Run.of_command(f"find2_consumer {mode}", [a.find2_consumer, mode], environment(env), timeout=300)
    if p.returncode != 0:
        fail(f"find2_consumer {mode}: exit {p.returncode}: {p.stderr[-500:]}")
    if a.drop_wrapper_errors:
        p.segments = {k: [l for l in v if not l.startswith(ERROR)] for k, v in p.segments.items()}
    return p


def provider(a, extra=None):
    return enabled(a, {"HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": "MIOPEN_ENGINE", "HIPDNN_PLUGIN_DIR": a.provider_dir,
                       **(extra or {})})


def short_run(p):
    recs = [r for r in p.of("call") if r["step"] == "short-workspace"]
    if len(recs) != 1:
        fail(f"{p.name}: {len(recs)} short-workspace runs, expected 1")
    r = recs[0]
    return r, p.segments.get(r["case"], [])


def short_workspace(a):
    problems = []
    r, lines = short_run(consumer_run(a, "short-workspace", provider(a)))
    needs, given = r["needs"], r["given"]
    if needs < 1:
        fail(f"enabled-provider: the hipDNN solution needs no workspace: nothing can be short (the check cannot "
             f"see a refusal)")
    want = (f"{ERROR}miopenRunSolution -> refused with miopenStatusBadParm: workspace of {given} bytes < the "
            f"solution's {needs}; MIOpen says \"requires at least {needs} workspace, while {given} was provided\"")
    said = [l for l in lines if l.startswith(WRAPPER)]
    if r["status"] != BAD_PARM or said != [want]:
        problems.append(f"enabled-provider: a run one byte short: status {r['status']}, lines {said}; expected "
                        f"status {BAD_PARM} and the one line {want!r}")
    off, off_lines = short_run(consumer_run(a, "short-workspace", {"MIOPEN_HIPDNN_FORWARDING": "disabled"}))
    words = f"requires at least {off['needs']} workspace, while {off['given']} was provided"
    if off["needs"] > 0 and not any(l.startswith(MIOPEN_ERROR) and words in l for l in off_lines):
        problems.append(f"disabled: MIOpen's own run one byte short does not say {words!r}: {off_lines}")
    for level in ("1", "2"):
        quiet, quiet_lines = short_run(consumer_run(a, "short-workspace", provider(a, {"MIOPEN_LOG_LEVEL": level})))
        if quiet["status"] != BAD_PARM or any(l.startswith(WRAPPER) for l in quiet_lines):
            problems.append(f"MIOPEN_LOG_LEVEL={level} (quieter than MIOpen's errors): status {quiet['status']}, "
                            f"lines {quiet_lines}; expected status {BAD_PARM} and no wrapper line")
    print(f"short workspace: needs {needs}, given {given}: status {r['status']}, {len(said)} line(s)")
    return problems


def parity_said(a):
    """Every failing call of the parity sequence says why on stderr."""
    problems, refused = [], 0
    for engine, env in (("reference", enabled(a)), ("provider", provider(a))):
        p = consumer_run(a, "parity", env)
        failing = [r for r in p.of("call") if r["status"] != 0]
        for r in failing:
            lines = p.segments.get(r["case"], [])
            ours = [l for l in lines if l.startswith(ERROR) and f" {r['entry']} -> " in l]
            miopens = [l for l in lines if l.startswith(MIOPEN_ERROR)]
            refused += sum(1 for l in ours if " -> refused with " in l)
            if not ours and not miopens:
                problems.append(f"enabled-{engine}: {r['step']} {r['entry']} failed with status {r['status']} "
                                f"silently: {lines}")
        print(f"enabled-{engine}: {len(failing)} failing calls, each with a line saying why")
    if refused < 16:
        problems.append(f"only {refused} refusals said by the wrapper over both engines (expected >= 16)")
    return problems


def refusals(a):
    return short_workspace(a) + parity_said(a)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=("summary", "refusals"))
    ap.add_argument("--find2-consumer", required=True)
    ap.add_argument("--fusion-consumer")
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--provider-dir")
    ap.add_argument("--corrupt-order", action="store_true")
    ap.add_argument("--corrupt-label", action="store_true")
    ap.add_argument("--drop-wrapper-errors", action="store_true")
    a = ap.parse_args()
    return checked("check_messages", lambda: {"summary": summary, "refusals": refusals}[a.check](a))


if __name__ == "__main__":
    sys.exit(main())
