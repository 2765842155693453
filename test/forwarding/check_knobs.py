#!/usr/bin/env python3
"""MIOpen's exhaustive search and a Find's workspace as hipDNN's knobs
(test/consumers/knobs_consumer.cpp; docs/forwarding.md, "Knobs"), on both
engines of the test bed, each case against the disabled run:

  legacy 1 full    a legacy Find with exhaustiveSearch: forwarded with
                   global.benchmarking=1; the provider benchmarks (one
                   `benchmarked forward search` line), the reference engine
                   has no such knob and does not;
  legacy 0 full    the negative: forwarded without the knob, no benchmark;
  legacy 1 64      a workspace of 64 bytes, under the provider's default plan
                   (the GEMM solver's im2col): the provider's plan is built
                   with global.workspace_size_limit=64; the reference engine
                   needs none, so no limit is sent;
  find2 1 none     Find 2.0 with miopenSetFindOptionTuning: a hipDNN solution
                   of a benchmarked plan, its run forwarded;
  find2 0 64       Find 2.0 with a workspace limit of 64 bytes: the provider's
                   solution needs at most 64 bytes.

Every call's status is the disabled run's, every output checked (`ok`).
--corrupt runs the first case without exhaustiveSearch (must fail: no
benchmark, no knob).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import HIPDNN, checked, environment, traces  # noqa: E402

ENGINES = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}
BENCH = "global.benchmarking=1"
BENCHMARKED = "benchmarked forward search"


def limit_note(n):
    return f"global.workspace_size_limit={n}"


# (consumer args, per engine: (knob notes the Find trace must hold, notes it must not, benchmark lines))
CASES = [
    (["legacy", "1", "full"], {"reference": ([BENCH], [limit_note("")], 0), "provider": ([BENCH], [limit_note("")], 1)}),
    (["legacy", "0", "full"], {"reference": ([], [BENCH], 0), "provider": ([], [BENCH], 0)}),
    (["legacy", "1", "64"], {"reference": ([BENCH], [limit_note("")], 0),
                             "provider": ([BENCH, limit_note(64)], [], 1)}),
    (["find2", "1", "none"], {"reference": ([BENCH], [limit_note("")], 0), "provider": ([BENCH], [], 1)}),
    (["find2", "0", "64"], {"reference": ([], [BENCH, limit_note("")], 0),
                            "provider": ([limit_note(64)], [BENCH], 0)}),
]


def run(a, name, args, extra):
    env = environment(dict(extra, HIPDNN_BACKEND_LIBRARY_PATH=a.backend_dir))
    return Run.of_command(name, [a.consumer, *args], env, timeout=120)


def check_case(a, args, want):
    problems = []
    label = " ".join(args)
    d = run(a, f"{label} disabled", args, {"MIOPEN_HIPDNN_FORWARDING": "disabled"})
    d_status = [(r["call"], r["status"]) for r in d.of("call")]
    if d.returncode != 0 or not d_status:
        return [f"{label} disabled: exit {d.returncode}, {d.stderr[-300:]}"]
    for engine, (must, must_not, benches) in want.items():
        extra = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
                 "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": ENGINES[engine], "MINI_HIPDNN_TEST_TRACE_EXECUTE": "1"}
        if engine == "provider":
            extra["HIPDNN_PLUGIN_DIR"] = a.provider_dir
        name = f"{label} enabled-{engine}"
        e = run(a, name, args, extra)
        calls = e.of("call")
        if e.returncode != 0:
            problems.append(f"{name}: exit {e.returncode}: {e.stderr[-300:]}")
            continue
        if [(r["call"], r["status"]) for r in calls] != d_status:
            problems.append(f"{name}: statuses {[(r['call'], r['status']) for r in calls]}, disabled {d_status}")
        bad = [r for r in calls if r["result"] != "ok"]
        if bad:
            problems.append(f"{name}: not ok: {bad}")
        finds = [t for t in traces(e.stderr) if t.entry.startswith(("miopenFind", "miopenRunSolution"))]
        if not finds or any(t.target != HIPDNN for t in finds):
            problems.append(f"{name}: Find/run not forwarded: {finds}")
            continue
        search = next(t for t in finds if t.entry.startswith("miopenFind"))
        missing = [k for k in must if k not in search.reason]
        present = [k for k in must_not if k in search.reason]
        if missing or present:
            problems.append(f"{name}: the Find's trace '{search.reason}' lacks {missing} / names {present}")
        got = e.stderr.count(BENCHMARKED)
        if got != benches:
            problems.append(f"{name}: {got} benchmarked searches by the provider, expected {benches}")
        if not problems:
            print(f"{name}: forwarded ({search.reason.split(';')[1].strip() if ';' in search.reason else ''}), "
                  f"{got} benchmark(s), statuses as disabled, output ok")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"))
    ap.add_argument("--provider-dir", required=True)
    ap.add_argument("--corrupt", action="store_true")
    a = ap.parse_args()

    def body():
        problems = []
        for args, want in CASES:
            if a.corrupt and args == ["legacy", "1", "full"]:
                args = ["legacy", "0", "full"]
            problems += check_case(a, args, want)
        return problems

    return checked("check_knobs", body)


if __name__ == "__main__":
    sys.exit(main())
