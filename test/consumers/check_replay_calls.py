#!/usr/bin/env python3
"""A framework replay (test/consumers/replay_<framework>.cpp) with forwarding
disabled and enabled on each hipDNN engine: what share of the framework's
convolution calls ran on hipDNN, and why the rest did not.

The replay prints one `call <i> <phase> <layer> status=<n> maxerr=<x>
result=<ok|mismatch|failed>` line per convolution call (each checked against
the replay's own double-precision reference) and writes a `<name>: call <i>`
marker on stderr before it, so each call's routing-trace lines are its own.

Requires: every run exits 0 with every call `ok` and the same calls in every
run; in each enabled run, exactly one routing-trace line of the compute entry
point (--compute) per call, at least --min-forwarded of the calls
`-> hipDNN`, and every call of a phase named by --all-forwarded-in. Prints, per run, the share forwarded and the calls not
forwarded by reason (the row of docs/forwarding.md's "What frameworks get").
"""
import argparse
import collections
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import HIPDNN, environment, trace, verdict  # noqa: E402

CALL = re.compile(r"^call (\d+) (\S+) (\S+) status=(-?\d+) maxerr=(\S+) result=(\w+)$")
ENGINES = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}


def parse(name, stdout, stderr):
    calls = {}
    for line in stdout.splitlines():
        m = CALL.match(line)
        if m:
            calls[int(m.group(1))] = m.groups()[1:]
    marker = re.compile(rf"^{re.escape(name)}: call (\d+)$")
    segments, current = {}, None
    for line in stderr.splitlines():
        m = marker.match(line)
        if m:
            current = int(m.group(1))
            segments[current] = []
        elif line == f"{name}: done":
            current = None
        elif current is not None:
            segments[current].append(line)
    return calls, segments


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--framework", required=True, help="the name in the table")
    ap.add_argument("--compute", required=True, help="the entry point of a convolution call")
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"))
    ap.add_argument("--provider-dir", required=True)
    ap.add_argument("--min-forwarded", type=float, default=1.0)
    ap.add_argument("--all-forwarded-in", action="append", default=[], metavar="PHASE",
                    help="every call of this phase must be forwarded (repeatable)")
    ap.add_argument("args", nargs="*", help="passed to the replay")
    a = ap.parse_args()
    name = os.path.basename(a.binary)
    problems = []
    runs = [("disabled", {"MIOPEN_HIPDNN_FORWARDING": "disabled"})]
    for engine, id_ in ENGINES.items():
        env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
               "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir, "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": id_}
        if engine == "provider":
            env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
        runs.append((f"enabled-{engine}", env))
    base = None
    for run_name, extra in runs:
        p = subprocess.run([a.binary, *a.args], env=environment(extra), capture_output=True, text=True, timeout=300)
        calls, segments = parse(name, p.stdout, p.stderr)
        if p.returncode != 0:
            problems.append(f"{run_name}: exit status {p.returncode}; stderr tail: {p.stderr.splitlines()[-5:]}")
        bad = [i for i, c in calls.items() if c[4] != "ok"]
        if bad or not calls:
            problems.append(f"{run_name}: calls not ok: {[calls[i] for i in bad[:5]]} ({len(calls)} calls)")
        shape = [(i, c[0], c[1]) for i, c in sorted(calls.items())]
        if base is None:
            base = shape
        elif shape != base:
            problems.append(f"{run_name}: other calls than the disabled run's")
        if run_name == "disabled":
            print(f"{a.framework}: {len(calls)} convolution calls ({a.compute}), all ok with forwarding disabled")
            continue
        forwarded, why = 0, collections.Counter()
        for i in sorted(calls):
            routes = [t for t in map(trace, segments.get(i, [])) if t and t.entry == a.compute]
            if len(routes) != 1:
                problems.append(f"{run_name}: call {i}: {len(routes)} routing-trace lines of {a.compute}")
                continue
            phase = calls[i][0]
            if routes[0].target == HIPDNN:
                forwarded += 1
            else:
                why[f"{phase}: -> {routes[0].target} ({routes[0].reason})"] += 1
                if phase in a.all_forwarded_in:
                    problems.append(f"{run_name}: call {i} ({phase}) not forwarded: {routes[0].reason}")
        n = len(calls)
        print(f"== {run_name}: {forwarded} of {n} convolution calls ran on hipDNN ({forwarded / max(n, 1):.0%})")
        for reason, k in why.most_common():
            print(f"      {k:4d}  {reason}")
        if n and forwarded < a.min_forwarded * n:
            problems.append(f"{run_name}: {forwarded} of {n} forwarded (< {a.min_forwarded:.0%})")
    return verdict("check_replay_calls", problems)


if __name__ == "__main__":
    sys.exit(main())
