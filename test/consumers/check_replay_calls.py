#!/usr/bin/env python3
"""A framework replay (test/consumers/replay_<framework>.cpp) with forwarding
disabled and enabled on each hipDNN engine: what share of the framework's
convolution calls ran on hipDNN, and why the rest did not.

The replay writes one `call` record per convolution call (its number, phase,
layer, status, maxerr, result ok|mismatch|failed: each checked against the
replay's own double-precision reference) and a `begin` marker of the same
number on stderr before it, so each call's routing-trace lines are its own
(test/lib/protocol.py).

Requires: every run exits 0 with every call `ok` and the same calls in every
run; in each enabled run, exactly one routing-trace line of the compute entry
point (--compute) per call, at least --min-forwarded of the calls
`-> hipDNN`, and every call of a phase named by --all-forwarded-in. Prints, per run, the share forwarded and the calls not
forwarded by reason (the row of docs/forwarding.md's "What frameworks get").
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import HIPDNN, checked, environment, trace  # noqa: E402

ENGINES = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}


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
    ap.add_argument("--ld-library-path", help="prepended to LD_LIBRARY_PATH (negative test: no wrapper)")
    ap.add_argument("args", nargs="*", help="passed to the replay")
    a = ap.parse_args()
    return checked("check_replay_calls", lambda: replay(a))


def replay(a):
    problems = []
    base = {}
    if a.ld_library_path:
        base["LD_LIBRARY_PATH"] = os.pathsep.join(x for x in (a.ld_library_path, os.environ.get("LD_LIBRARY_PATH")) if x)
    runs = [("disabled", {"MIOPEN_HIPDNN_FORWARDING": "disabled"})]
    for engine, id_ in ENGINES.items():
        env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
               "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir, "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": id_}
        if engine == "provider":
            env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
        runs.append((f"enabled-{engine}", env))
    shape_of_disabled = None
    for run_name, extra in runs:
        p = Run.of_command(run_name, [a.binary, *a.args], environment(dict(base, **extra)), timeout=300)
        calls, segments = p.by_case("call"), p.segments
        if p.returncode != 0:
            problems.append(f"{run_name}: exit status {p.returncode}; stderr tail: {p.err[-5:]}")
        bad = [i for i, c in calls.items() if c["result"] != "ok"]
        if bad or not calls:
            problems.append(f"{run_name}: calls not ok: {[calls[i] for i in bad[:5]]} ({len(calls)} calls)")
        shape = [(i, c["phase"], c["layer"]) for i, c in sorted(calls.items())]
        if shape_of_disabled is None:
            shape_of_disabled = shape
        elif shape != shape_of_disabled:
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
            phase = calls[i]["phase"]
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
    return problems


if __name__ == "__main__":
    sys.exit(main())
