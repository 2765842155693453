#!/usr/bin/env python3
"""Batchnorm training with running statistics stays on MIOpen (the decision:
docs/forwarding.md, "The batchnorm family", "Running statistics").

Runs bn_differential --op training (random problems, legacy and _V2; about
one in ten passes resultRunningMean and resultRunningVariance, whose update
the program checks against its own double reference of MIOpen's formula)
with forwarding enabled and the routing trace on, stdout and stderr as one
stream, so that each case's records bracket its calls' trace lines. Requires
  * every case with running statistics: its training call declined with
    the documented reason, and its result (y, the saved statistics, the
    running mean and variance) within tolerance;
  * no case without them declined for that reason, and most of them
    forwarded (so the decline is the running statistics', not a blanket one);
  * at least --min-running cases with running statistics.

--expect-forwarded (negative control) requires the running-statistics
calls forwarded, as forwarding them would; it must fail.
"""
import argparse
import json
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from wrapper_test import DECLINED, HIPDNN, PRIVATE, checked, environment, fail, trace  # noqa: E402

REASON = (f"{DECLINED}resultRunningMean or resultRunningVariance is given (running statistics: hipDNN's MIOpen "
          "provider's training computes batch statistics only)")


def cases(a):
    env = environment({"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
                       "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir})
    if a.provider_dir:
        env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
    p = subprocess.run([a.binary, "--op", "training", "--cases", str(a.cases), "--seed", str(a.seed)], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    if p.returncode not in (0, 1):
        fail(f"bn_differential exited {p.returncode}:\n{p.stdout[-2000:]}")
    out, calls = [], []
    for line in p.stdout.splitlines():
        t = trace(line)
        if t and t.family == "bn_fwd_training":
            calls.append(t)
        elif line.startswith("{"):
            r = json.loads(line)
            if r.get("kind") == "begin":
                calls = []
            elif r.get("kind") == "case":
                out.append((r, calls))
    return out


def compare(a):
    got = cases(a)
    running = [(r, c) for r, c in got if r["problem"].endswith(" running")]
    others = [(r, c) for r, c in got if not r["problem"].endswith(" running")]
    problems = []
    checked_ok = sum(1 for r, _ in running if r["result"] == "ok")
    if checked_ok < a.min_running:
        problems.append(f"only {checked_ok} of {len(got)} cases pass running statistics and compute "
                        f"(want {a.min_running})")
    for r, calls in running:
        want = (HIPDNN, "forwarded") if a.expect_forwarded else (PRIVATE, REASON)
        if not calls or any((t.target, t.reason.split(";")[0]) != want for t in calls):
            problems.append(f"case {r['case']} ({r['problem']}): expected its call -> {want[0]} ({want[1]}), got "
                            f"{[(t.target, t.reason) for t in calls]}")
        # "rejected": MIOpen's own status for a call it refuses (a padded training x), as disabled.
        if r["result"] not in ("ok", "rejected"):
            problems.append(f"case {r['case']} ({r['problem']}): result {r['result']} {r.get('why')}")
    wrongly = [r["case"] for r, calls in others if any(t.reason == REASON for t in calls)]
    if wrongly:
        problems.append(f"cases without running statistics declined for them: {wrongly[:5]}")
    forwarded = sum(1 for _, calls in others if calls and all(t.target == HIPDNN for t in calls))
    if forwarded < len(others) // 2:
        problems.append(f"only {forwarded} of {len(others)} cases without running statistics forwarded")
    if not problems:
        print(f"{len(running)} training calls with running statistics declined ({REASON[len(DECLINED):60]}...), "
              f"{checked_ok} of them computed by MIOpen and checked against the double reference (running mean "
              f"and variance included), the others refused by MIOpen as without the wrapper; "
              f"{forwarded} of {len(others)} calls without them forwarded, none declined for them")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="bn_differential")
    ap.add_argument("--backend-dir", required=True, help="HIPDNN_BACKEND_LIBRARY_PATH")
    ap.add_argument("--provider-dir", help="HIPDNN_PLUGIN_DIR of the MIOpen provider engine")
    ap.add_argument("--cases", type=int, default=200)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--min-running", type=int, default=10)
    ap.add_argument("--expect-forwarded", action="store_true", help="negative control")
    a = ap.parse_args()
    return checked("check_bn_running_stats", lambda: compare(a))


if __name__ == "__main__":
    sys.exit(main())
