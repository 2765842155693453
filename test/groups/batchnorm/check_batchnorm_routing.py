#!/usr/bin/env python3
"""The batchnorm families' routing contract in a build whose forwarding set
has them (run on bn_differential, whose cases are each one call of the
operation --op names: inference, training or backward):

  * enabled: some calls -> hipDNN, every other one declined with a reason;
  * MIOPEN_DISABLE_HIPDNN_FOR=<family> (bn_fwd_inference, bn_fwd_training,
    bn_bwd), =batchnorm, =*: every call
    -> MIOpen Private, opted out; =convolution: batchnorm still forwards
    (the group's umbrella is itself);
  * MIOPEN_ENABLE_LOGGING_CMD=1: every call keeps the routing of the unset
    run, no trace naming the variable (the wrapper writes MIOpen's line for
    each direction: the lines themselves are check_bn_driver_line.py's);
  * MIOPEN_HIPDNN_EXIT_SUMMARY=1: the summary counts the forwarded calls of
    both entry points as the trace does;
  * every call made twice: a forwarded first call is a plan-cache miss, its
    repeat a hit;
  * faults (RFC §6.1): no backend in reach -> the calls hipDNN would run
    return miopenStatusNotInitialized ("backend unavailable"); a failing
    execute (MINI_HIPDNN_TEST_FAIL_EXECUTE=1) -> an error status, none
    reported forwarded; for each such call miopenGetLastForwardedError says
    failed, with the hipDNN status (-1: none ran; 13: EXECUTION_FAILED) and
    the entry point, and miopenGetErrorString has the `[hipDNN-forwarded] `
    prefix; a call MIOpen itself rejects has neither;
  * a backend whose batchnorm types are numbered otherwise
    (MINI_HIPDNN_TEST_REVISION_SHAPE=batchnorm-unnumbered), and one without
    type 17, which only the fusion group's backward plan builds
    (no-batchnorm-inference-inv; the per-group probe, each shape in its own
    run): the calls hipDNN would run return miopenStatusNotInitialized,
    with one diagnostic naming the batchnorm group (convolution keeps
    forwarding: check_forwarding.py's revision shapes).

--expect-opted-out <value> (negative control) requires every call opted out
under that value of MIOPEN_DISABLE_HIPDNN_FOR and nothing else.
"""
import argparse
import collections
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import (FORWARDED_ERROR, HIPDNN, PRIVATE, SUMMARY_FORWARDED, checked, fail, run,  # noqa: E402
                          summary_rows, traces)

# --op -> the compute entry point (and its _V2) and the family.
OPS = {
    "inference": ("miopenBatchNormalizationForwardInference", "bn_fwd_inference"),
    "training": ("miopenBatchNormalizationForwardTraining", "bn_fwd_training"),
    "backward": ("miopenBatchNormalizationBackward", "bn_bwd"),
}
ENTRIES = ()
GROUP_DIAGNOSTIC = "the hipDNN backend cannot run the batchnorm group"


BACKEND = {}
OP = []


def routes(binary, cases, extra, calls=1):
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5", **BACKEND, **extra}
    cmd = [binary, "--cases", str(cases), "--seed", "3", "--calls", str(calls), "--report-errors", "1", *OP]
    r = run(cmd, env, timeout=120)
    if r.returncode != 0:
        fail(f"{binary} exited {r.returncode} under {extra}:\n{r.stderr[-2000:]}")
    bn = [t for t in traces(r.stderr) if t.entry in ENTRIES]
    if len(bn) != cases * calls:
        fail(f"{len(bn)} batchnorm trace lines for {cases} calls under {extra}")
    return bn, r


def attribution(what, stdout, want, hipdnn):
    """The wrapper's error API for the failed calls of a run (the consumer's
    `error` records): `want` forwarded failures with hipDNN status `hipdnn`
    and the prefix; every other failure (MIOpen's own rejection) with neither."""
    rows = records(stdout, "error")
    prefixed = [(r.get("errstr") or "").startswith(FORWARDED_ERROR) for r in rows]
    failed = [r for r in rows if r.get("outcome") == 2]
    bad = [r for r in failed if r.get("hipdnn") != hipdnn or r.get("entry") not in ENTRIES
           or not (r.get("errstr") or "").startswith(FORWARDED_ERROR)]
    bad += [r for r, p in zip(rows, prefixed) if r.get("outcome") != 2 and p]
    out = []
    if len(failed) != want:
        out.append(f"{what}: miopenGetLastForwardedError says failed for {len(failed)} calls, expected {want}")
    if bad:
        out.append(f"{what}: {len(bad)} failed calls misattributed (first: {bad[0]})")
    return out


def opted_out(bn):
    return all(t.target == PRIVATE and t.reason.startswith("opted out") for t in bn)


def refused_by_probe(a, shape, want):
    """Under revision shape `shape` the per-group probe refuses the batchnorm
    group: every call hipDNN would run returns miopenStatusNotInitialized,
    with one diagnostic that says what to set."""
    shaped, shaped_run = routes(a.binary, a.cases, {"MINI_HIPDNN_TEST_REVISION_SHAPE": shape})
    refused = [t for t in shaped if t.target == "error miopenStatusNotInitialized"]
    problems = []
    if len(refused) != want or any(t.target == HIPDNN for t in shaped):
        problems.append(f"batchnorm types renumbered in shape {shape}: {len(refused)} calls miopenStatusNotInitialized, "
                        f"expected {want}")
    shaped_err = shaped_run.stderr
    if shaped_err.count(GROUP_DIAGNOSTIC) != 1 or "MIOPEN_DISABLE_HIPDNN_FOR=batchnorm" not in shaped_err:
        problems.append(f"batchnorm types renumbered in shape {shape}: {shaped_err.count(GROUP_DIAGNOSTIC)} group "
                        "diagnostics, expected one that says what to set")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--backend-dir", required=True, help="HIPDNN_BACKEND_LIBRARY_PATH")
    ap.add_argument("--expect-opted-out")
    ap.add_argument("--op", choices=sorted(OPS), default="inference")
    ap.add_argument("--revision-shape", nargs="+", default=["batchnorm-unnumbered", "no-batchnorm-inference-inv"],
                    help="each MINI_HIPDNN_TEST_REVISION_SHAPE whose batchnorm types the probe must refuse "
                         "(negative control: one it accepts)")
    a = ap.parse_args()
    global ENTRIES
    entry, family = OPS[a.op]
    ENTRIES = (entry, entry + "_V2")
    OP.extend(["--op", a.op])
    BACKEND["HIPDNN_BACKEND_LIBRARY_PATH"] = a.backend_dir
    if a.expect_opted_out is not None:
        return checked("check_batchnorm_routing", lambda: expect_opted_out(a))
    return checked("check_batchnorm_routing", lambda: every_check(a, family))


def expect_opted_out(a):
    bn, _ = routes(a.binary, a.cases, {"MIOPEN_DISABLE_HIPDNN_FOR": a.expect_opted_out})
    if not opted_out(bn):
        c = collections.Counter(f"{t.target}: {t.reason.split(' (')[0]}" for t in bn)
        return [f"MIOPEN_DISABLE_HIPDNN_FOR={a.expect_opted_out} did not opt out every call: {dict(c)}"]
    return []


def every_check(a, family):
    problems = []
    bn, r = routes(a.binary, a.cases, {"MIOPEN_HIPDNN_EXIT_SUMMARY": "1"})
    forwarded = collections.Counter(t.entry for t in bn if t.target == HIPDNN)
    if not forwarded or any(t.target != HIPDNN and not t.declined for t in bn):
        problems.append(f"enabled: {sum(forwarded.values())} forwarded; every other call must be declined")
    if any(t.family != family for t in bn):
        problems.append(f"a batchnorm trace line names another family than {family}")
    rows = summary_rows(r.stderr)
    for e in ENTRIES:
        got = sum(v for (entry, outcome), v in rows.items() if entry == e and outcome == SUMMARY_FORWARDED)
        if got != forwarded[e]:
            problems.append(f"exit summary: {e} forwarded {got}, the trace says {forwarded[e]}")
    for value in (family, "batchnorm", "*"):
        if not opted_out(routes(a.binary, a.cases, {"MIOPEN_DISABLE_HIPDNN_FOR": value})[0]):
            problems.append(f"MIOPEN_DISABLE_HIPDNN_FOR={value}: not every call opted out")
    if not any(t.target == HIPDNN for t in routes(a.binary, a.cases, {"MIOPEN_DISABLE_HIPDNN_FOR": "convolution"})[0]):
        problems.append("MIOPEN_DISABLE_HIPDNN_FOR=convolution switched batchnorm off too")
    cmd, _ = routes(a.binary, a.cases, {"MIOPEN_ENABLE_LOGGING_CMD": "1"})
    # The wrapper writes the driver line of every direction: the routing is unchanged.
    if [t.target for t in cmd] != [t.target for t in bn] or any("MIOPEN_ENABLE_LOGGING_CMD" in t.reason for t in cmd):
        problems.append("MIOPEN_ENABLE_LOGGING_CMD=1 changed the routing of batchnorm calls")
    twice, _ = routes(a.binary, a.cases, {}, calls=2)
    pairs = [(f, g) for f, g in zip(twice[::2], twice[1::2]) if f.target == HIPDNN]
    if not pairs or any(not f.reason.endswith("plan cache miss") or not g.reason.endswith("plan cache hit")
                        for f, g in pairs):
        problems.append("a repeated forwarded call is not a plan-cache miss, then a hit")
    with tempfile.TemporaryDirectory() as empty:
        absent, absent_run = routes(a.binary, a.cases, {"HIPDNN_BACKEND_LIBRARY_PATH": empty})
    want = sum(forwarded.values())
    unavailable = [t for t in absent if t.target == "error miopenStatusNotInitialized"]
    if len(unavailable) != want or any(t.target == HIPDNN for t in absent):
        problems.append(f"backend absent: {len(unavailable)} calls miopenStatusNotInitialized, expected {want}")
    problems += attribution("backend absent", absent_run.stdout, want, -1)
    failing, failing_run = routes(a.binary, a.cases, {"MINI_HIPDNN_TEST_FAIL_EXECUTE": "1"})
    errors = [t for t in failing if t.target.startswith("error ")]
    if len(errors) != want or any(t.target == HIPDNN for t in failing):
        problems.append(f"execute failing: {len(errors)} calls with an error status, expected {want}")
    problems += attribution("execute failing", failing_run.stdout, want, 13)
    for shape in a.revision_shape:
        problems += refused_by_probe(a, shape, want)
    print(f"{sum(forwarded.values())} of {a.cases} calls forwarded")
    return problems


if __name__ == "__main__":
    sys.exit(main())
