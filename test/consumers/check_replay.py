#!/usr/bin/env python3
"""What a framework gets: one framework replay, forwarding disabled vs enabled.

Runs a test/consumers/replay_<framework> program with forwarding disabled
and then enabled (the routing trace on, the hipDNN engine given), and
requires:

  * both runs exit 0 and write the `done` record;
  * every `result` record (a layer's output checksum) the same in both runs
    within --tolerance (relative), and every `status` record (a status the
    framework does not check) identical (test/lib/protocol.py);
  * in the enabled run, a routing-trace line for every convolution call
    (the compute calls: legacy, Immediate, the fused one-call API and the
    fusion-plan executes); none means the program did not run against the
    wrapper;
  * with --expect-plain-forwarded: every plain convolution call (not a
    fusion-plan execute) ran on hipDNN.

Prints the share of the convolution calls that ran on hipDNN, and why the
rest did not (by entry point and reason), as the table row of
docs/forwarding.md "What frameworks get".
"""
import argparse
import collections
import os
import re
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import HIPDNN, checked, environment, trace  # noqa: E402

PLAIN = {f"miopenConvolution{d}{i}" for d in ("Forward", "BackwardData", "BackwardWeights") for i in ("", "Immediate")}
FUSED = {"miopenConvolutionBiasActivationForward", "miopenExecuteFusionPlan", "miopenExecuteFusionPlan_v2"}
WHAT = ("step", "layer", "tensor")  # what a `result` record is of


def compared(run):
    return [r for r in run.records if r["kind"] in ("result", "status")]


def compare(dis, ena, tolerance):
    problems = []
    a, b = compared(dis), compared(ena)
    if len(a) != len(b):
        return [f"{len(a)} result/status records disabled, {len(b)} enabled"]
    for x, y in zip(a, b):
        if x["kind"] == y["kind"] == "result" and all(x[k] == y[k] for k in WHAT):
            if any(abs(x[k] - y[k]) > tolerance * max(1.0, abs(x[k])) for k in ("sum", "abs")):
                problems.append(f"result differs: disabled `{x}`, enabled `{y}`")
        elif x != y:
            problems.append(f"differs: disabled `{x}`, enabled `{y}`")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--framework", required=True, help="the name printed in the table")
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"))
    ap.add_argument("--engine", default="MINI_REFERENCE_ENGINE", help="HIPDNN_HEUR_FALLBACK_ENGINE_ORDER")
    ap.add_argument("--plugin-dir", help="HIPDNN_PLUGIN_DIR (the MIOpen provider's)")
    ap.add_argument("--tolerance", type=float, default=1e-4)
    ap.add_argument("--expect-plain-forwarded", action="store_true")
    ap.add_argument("--set", action="append", default=[], metavar="K=V",
                    help="extra environment of the enabled run (negative tests)")
    ap.add_argument("--ld-library-path", help="prepended to LD_LIBRARY_PATH (negative test: no wrapper)")
    a = ap.parse_args()
    if not a.backend_dir or not os.path.isabs(a.backend_dir):
        ap.error("--backend-dir (absolute) or HIPDNN_BACKEND_LIBRARY_PATH is needed")

    base = {}
    if a.ld_library_path:
        base["LD_LIBRARY_PATH"] = os.pathsep.join(x for x in (a.ld_library_path, os.environ.get("LD_LIBRARY_PATH")) if x)
    enabled = dict(base, MIOPEN_HIPDNN_FORWARDING="enabled", MIOPEN_HIPDNN_LOG_ROUTING="1",
                   HIPDNN_BACKEND_LIBRARY_PATH=a.backend_dir, HIPDNN_HEUR_FALLBACK_ENGINE_ORDER=a.engine)
    if a.plugin_dir:
        enabled["HIPDNN_PLUGIN_DIR"] = a.plugin_dir
    for kv in a.set:
        k, _, v = kv.partition("=")
        enabled[k] = v
    return checked("check_replay", lambda: replay(a, base, enabled))


def replay(a, base, enabled):
    problems = []
    runs = {}
    for name, env in (("disabled", dict(base, MIOPEN_HIPDNN_FORWARDING="disabled")), ("enabled", enabled)):
        r = runs[name] = Run.of_command(name, [a.binary], environment(env), timeout=300)
        if r.returncode != 0 or not r.of("done"):
            problems.append(f"{name} run: exit status {r.returncode}; stderr tail:\n" + "\n".join(r.err[-15:]))
    if not problems:
        problems += compare(runs["disabled"], runs["enabled"], a.tolerance)

    routes = [t for t in map(trace, runs["enabled"].err) if t and (t.entry in PLAIN or t.entry in FUSED)]
    calls = {"plain": collections.Counter(), "fused": collections.Counter()}
    why = collections.Counter()
    for t in routes:
        kind = "plain" if t.entry in PLAIN else "fused"
        on = t.target == HIPDNN
        calls[kind][on] += 1
        if not on:
            # Sizes folded, so one reason is one row.
            why[f"{t.entry} -> {t.target} ({re.sub(r'[0-9]+ bytes', '<n> bytes', t.reason)})"] += 1
    total = sum(sum(c.values()) for c in calls.values())
    if total == 0:
        problems.append("no routing trace for a convolution call (is the program running against the wrapper?)")
    if a.expect_plain_forwarded and calls["plain"][False]:
        problems.append(f"{calls['plain'][False]} plain convolution call(s) did not run on hipDNN")

    hip = calls["plain"][True] + calls["fused"][True]
    share = f"{hip}/{total}" + (f" ({100.0 * hip / total:.0f}%)" if total else "")
    print(f"replay {a.framework}: {share} convolution calls on hipDNN; "
          f"plain {calls['plain'][True]}/{sum(calls['plain'].values())}, "
          f"fused {calls['fused'][True]}/{sum(calls['fused'].values())}")
    for k, v in why.most_common():
        print(f"  not on hipDNN: {v:3d} x {k}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
