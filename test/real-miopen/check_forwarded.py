#!/usr/bin/env python3
"""The convolution family forwarded to hipDNN, each result checked.

Runs test/real-miopen/forwarded_consumer with forwarding enabled (the routing
trace, the exit summary and MIOPEN_ENABLE_LOGGING_CMD on), and once more with
forwarding disabled and MIOPEN_ENABLE_LOGGING_CMD on, and requires:

  * every case whose compute call (legacy, Immediate, conv+bias+ReLU) the
    trace shows forwarded succeeded and matched the consumer's reference
    (`result=ok`): the forwarded results are checked, none is skipped;
  * every case that did not run names why: the calls the trace shows
    declined (with the wrapper's reason) or failed, or MIOpen listing no
    solution; on a HIPNOGPU build MIOpen Private cannot compute, so a
    declined compute call fails there;
  * MIOpen's driver command lines (`MIOpen(HIP): Command [...] ./bin/MIOpenDriver ...`):
    per case, the enabled run's lines (the wrapper's for forwarded calls,
    MIOpen's for the others) equal the disabled run's (MIOpen's) for every
    kind of call MIOpen writes one for; the kinds it writes none for are
    listed;
  * --corrupt: the consumer's negative control (one element of case 0
    changed, and with --batchnorm of the first inference, training and
    backward case) is reported
    as a mismatch.
With --disabled-computes (a MIOpen that computes on the host, the test bed)
the disabled run's results must be ok as well, but for conv+bias+ReLU
answered miopenStatusUnsupportedOp (MIOpen's own plan for that call has no
fused solver without Composable Kernel). With --batchnorm (a build whose
forwarding set has batchnorm) the consumer adds its batchnorm inference,
training and backward cases (legacy and _V2), checked the same way: their trace lines, results and
`[LogCmdBNorm]` driver lines, and every one of them must be forwarded.

  check_forwarded.py --consumer BIN --backend-dir DIR [--lib-dir DIR] --work DIR
                     [--disabled-computes] [--batchnorm] [--json FILE]

Prints a summary (cases by result, calls forwarded / declined by reason,
driver lines compared) and writes it as JSON to --json.
"""
import argparse
import collections
import json
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import (COMMAND, DRIVER, HIPDNN, PRIVATE, SUMMARY_ROW, checked, environment, fail,  # noqa: E402
                          families, forwarding_set, trace, user_db)

# The driver lines compared per case (the lines of other loggers are counted).
COMPARED_LOGGERS = {"LogCmdConvolution", "LogCmdFindConvolution", "LogCmdBNorm"}
TRACED_FAMILIES = set(families("convolution"))
COMPUTE = {"miopenConvolutionForward", "miopenConvolutionBackwardData", "miopenConvolutionBackwardWeights",
           "miopenConvolutionForwardImmediate", "miopenConvolutionBackwardDataImmediate",
           "miopenConvolutionBackwardWeightsImmediate", "miopenConvolutionBiasActivationForward"}
BN_COMPUTE = {"miopenBatchNormalizationForwardInference", "miopenBatchNormalizationForwardInference_V2",
              "miopenBatchNormalizationForwardTraining", "miopenBatchNormalizationForwardTraining_V2",
              "miopenBatchNormalizationBackward", "miopenBatchNormalizationBackward_V2"}
BN_LABELS = ("bninf", "bntrn", "bnbwd")


def run(a, env, args=()):
    if a.lib_dir:
        env = dict(env, LD_LIBRARY_PATH=a.lib_dir)
    if a.batchnorm:
        args = [*args, "--batchnorm"]
    with user_db(parent=a.work, cache_too=True) as db:
        return Run.of_command("forwarded", [a.consumer, *args], environment(dict(env, **db)), timeout=1800)


def driver_line(line):
    """(logger, command) of MIOpen's `Command [<logger>] ./bin/MIOpenDriver ...` line, or None."""
    if not line.startswith(COMMAND) or DRIVER not in line:
        return None
    logger, _, command = line[len(COMMAND):].partition("] ")
    return (logger, command) if command.startswith(DRIVER) else None


def per_case(p):
    """case index -> {"trace": [(entry, target, reason)], "driver": [(logger, command)]}."""
    out = {}
    for case, lines in p.segments.items():
        out[case] = {"trace": [], "driver": []}
        for line in lines:
            t, d = trace(line), driver_line(line)
            if t and t.family in TRACED_FAMILIES:
                out[case]["trace"].append((t.entry, t.target, t.reason))
            elif d:
                out[case]["driver"].append(d)
    return out


UNSUPPORTED_OP = 8  # miopenStatusUnsupportedOp


def cases_of(p):
    return p.by_case("case")


def reason_class(reason):
    """A decline reason without the numbers that vary per problem."""
    return re.sub(r"\d+", "N", reason)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--lib-dir")
    ap.add_argument("--work", required=True)
    ap.add_argument("--disabled-computes", action="store_true")
    ap.add_argument("--batchnorm", action="store_true", help="add the consumer's batchnorm inference cases")
    ap.add_argument("--json")
    a = ap.parse_args()
    return checked("check_forwarded", lambda: check(a))


def check(a):
    if a.batchnorm:
        TRACED_FAMILIES.update(families("batchnorm"))
        COMPUTE.update(BN_COMPUTE)
    os.makedirs(a.work, exist_ok=True)
    if COMPUTE - set(forwarding_set()):
        fail(f"compute calls outside the forwarding table: {sorted(COMPUTE - set(forwarding_set()))}")
    problems = []
    enabled_env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir,
                   "MIOPEN_HIPDNN_LOG_ROUTING": "1", "MIOPEN_HIPDNN_EXIT_SUMMARY": "1",
                   "MIOPEN_ENABLE_LOGGING_CMD": "1"}
    on = run(a, enabled_env)
    err = on.err
    with open(os.path.join(a.work, "forwarded-enabled.stderr"), "w") as f:
        f.write(on.stderr)
    with open(os.path.join(a.work, "forwarded-enabled.stdout"), "w") as f:
        f.write(on.stdout)
    cases, split = cases_of(on), per_case(on)
    if on.returncode != 0:
        problems.append(f"the enabled run exited {on.returncode} (a mismatch, or a crash; see {a.work}/forwarded-enabled.*)")
    if not cases:
        fail("no case records from the consumer:\n" + "\n".join((on.stdout.splitlines() + err)[-20:]))

    results = collections.Counter(c["result"] for c in cases.values())
    decisions = collections.Counter()
    declined = collections.Counter()
    not_run = []
    checked = 0
    for i, c in sorted(cases.items()):
        routes = split.get(i, {}).get("trace", [])
        for entry, target, reason in routes:
            kind = "forwarded" if target == HIPDNN else "declined" if target == PRIVATE else "error"
            decisions[(entry, kind)] += 1
            if kind == "declined":
                declined[reason_class(reason)] += 1
        computed = [(e, t, r) for e, t, r in routes if e in COMPUTE]
        forwarded = bool(computed) and all(t == HIPDNN for _, t, _ in computed)
        if c["label"].startswith(BN_LABELS) and not forwarded:
            problems.append(f"case {i} ({c['label']}): a batchnorm call the provider runs was not forwarded "
                            f"({computed})")
        if forwarded and c["result"] == "ok":
            checked += 1
        elif forwarded:
            problems.append(f"case {i} ({c['label']}): forwarded, but result={c['result']} status={c['status']} "
                            f"step={c['step']} maxerr={c['maxerr']}")
        else:
            why = "; ".join(sorted({f"{e} -> {t} ({r})" for e, t, r in routes if t != HIPDNN}))
            if c["result"] == "no-solution":
                why = why or "MIOpen lists no solution for the problem"
            if not why:
                problems.append(f"case {i} ({c['label']}): result={c['result']} with no trace line saying why")
            not_run.append({"case": i, "label": c["label"], "result": c["result"], "status": c["status"],
                            "step": c["step"], "why": why})
    summary = [l.strip() for l in err if SUMMARY_ROW.match(l) or l.startswith("  plan cache")]

    # The driver lines of the same calls with forwarding disabled.
    off = run(a, {"MIOPEN_ENABLE_LOGGING_CMD": "1"})
    with open(os.path.join(a.work, "forwarded-disabled.stderr"), "w") as f:
        f.write(off.stderr)
    cases_off, split_off = cases_of(off), per_case(off)
    if set(cases_off) != set(cases):
        problems.append(f"the disabled run reported {len(cases_off)} of {len(cases)} cases (exit {off.returncode})")
    if a.disabled_computes:
        # MIOpen runs conv+bias+ReLU as a plan of its own with z's addition,
        # which no fused solver without Composable Kernel takes.
        bad = [i for i, c in cases_off.items() if c["result"] not in ("ok", "no-solution")
               and not (c["label"].startswith("cba ") and c["status"] == UNSUPPORTED_OP)]
        if bad:
            problems.append(f"disabled run: cases {bad[:10]} did not compute correctly")
    # Per case, MIOpen's convolution driver lines must be the same; the
    # lines of other loggers (a fused call's) are counted on each side.
    lines, other = collections.Counter(), collections.Counter()
    for i in sorted(cases):
        on_all = split.get(i, {}).get("driver", [])
        off_all = split_off.get(i, {}).get("driver", [])
        on = [l for l in on_all if l[0] in COMPARED_LOGGERS]
        off = [l for l in off_all if l[0] in COMPARED_LOGGERS]
        for side, side_lines in (("enabled", on_all), ("disabled", off_all)):
            for logger, _ in side_lines:
                if logger not in COMPARED_LOGGERS:
                    other[(side, logger)] += 1
        if on != off:
            problems.append(f"case {i} ({cases[i]['label']}): driver lines differ:\n      enabled  {on}\n"
                            f"      disabled {off}")
            continue
        for logger, command in on:
            kind = ("batchnorm" if logger == "LogCmdBNorm" else "Find" if logger == "LogCmdFindConvolution"
                    else "Immediate" if " -S " in command else "legacy")
            lines[kind] += 1
    cba_made = any(c["label"].startswith("cba") for c in cases.values())
    unwritten = [k for k in ("Find", "legacy", "Immediate") + (("batchnorm",) if a.batchnorm else ()) if lines[k] == 0]
    if cba_made and not any(side == "disabled" for side, _ in other):
        unwritten.append("conv+bias+activation")
    # The negative control: one element of case 0 changed must be a mismatch.
    # With --batchnorm, the first case of each batchnorm pass too.
    controls = [0]
    if a.batchnorm:
        bn = sorted(i for i, c in cases.items() if c["label"].startswith(BN_LABELS))
        for prefix in BN_LABELS:
            controls += [i for i in bn if cases[i]["label"].startswith(prefix)][:1]
        if not bn:
            problems.append("--batchnorm: the consumer reported no batchnorm case")
    for k in controls:
        negative = run(a, enabled_env, ["--only", str(k), "--corrupt", str(k)])
        neg = cases_of(negative).get(k, {}).get("result")
        if negative.returncode == 0 or neg != "mismatch":
            problems.append(f"negative control: case {k} with one element changed reported {neg} "
                            f"(exit {negative.returncode})")

    report = {
        "cases": len(cases), "results": dict(results), "forwarded_results_checked": checked,
        "calls": {f"{e} {k}": n for (e, k), n in sorted(decisions.items())},
        "calls_forwarded": sum(n for (e, k), n in decisions.items() if k == "forwarded"),
        "calls_declined": sum(n for (e, k), n in decisions.items() if k == "declined"),
        "calls_failed": sum(n for (e, k), n in decisions.items() if k == "error"),
        "declined_by_reason": dict(declined), "not_run": not_run, "exit_summary": summary,
        "driver_lines_equal": sum(lines.values()), "driver_lines_by_call": dict(lines),
        "driver_lines_not_written_by_miopen": unwritten,
        "other_driver_lines": {f"{side} {logger}": n for (side, logger), n in other.items()},
        "negative_control": neg, "problems": problems,
    }
    if a.json:
        with open(a.json, "w") as f:
            json.dump(report, f, indent=1)
    print(f"check_forwarded: {len(cases)} cases: " + ", ".join(f"{n} {r}" for r, n in sorted(results.items()))
          + f"; {checked} forwarded results checked against the reference")
    print(f"  calls: {report['calls_forwarded']} forwarded, {report['calls_declined']} declined, "
          f"{report['calls_failed']} failed in hipDNN")
    for r, n in declined.most_common():
        print(f"  declined {n}x: {r}")
    for n in not_run[:20]:
        print(f"  not run: case {n['case']} ({n['label']}): {n['result']}: {n['why']}")
    print(f"  driver lines: {report['driver_lines_equal']} equal to MIOpen's with forwarding disabled "
          f"({dict(lines)}); MIOpen writes none for: {', '.join(unwritten) or 'nothing'}; "
          f"other loggers: {report['other_driver_lines'] or 'none'}")
    print(f"  negative control: {neg}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
