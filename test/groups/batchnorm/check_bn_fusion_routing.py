#!/usr/bin/env python3
"""The routing of a batchnorm fusion plan (issue 31 item 1) in a build whose
forwarding set has batchnorm, run on bn_fusion_differential (inference ->
activation, --family bn_fwd_inference) or bn_fusion_bwd_differential
(backward -> activation backward, --family bn_bwd; one plan per case; its
execute is the compute call):

  * enabled: some executes -> hipDNN, every other one declined with a reason;
  * a batchnorm plan reaches hipDNN only where a batchnorm call of its
    direction would: MIOPEN_DISABLE_HIPDNN_FOR=<family> or =batchnorm -> no
    execute forwarded, each declined naming the family; =* and =convolution
    (the fusion group's umbrella) -> every execute opted out; --other-family
    (another batchnorm family) keeps them forwarded;
  * MIOPEN_ENABLE_LOGGING_CMD=1 -> an inference plan still forwarded (the
    wrapper writes MIOpen's line: check_bn_driver_line.py compares them); a
    backward plan declined naming the variable (MIOpen has no fusion mode for
    it);
  * the family's fused-solver switch (MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED,
    MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED) =0 -> no compile forwarded, each
    declined naming the variable, and every plan fails to compile with
    miopenStatusUnsupportedOp, as on MIOpen (so no execute); =1 changes
    nothing.

--expect-not-forwarded <value> (negative control) requires no execute to
reach hipDNN under that value of MIOPEN_DISABLE_HIPDNN_FOR.
"""
import argparse
import collections
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import HIPDNN, PRIVATE, checked, fail, run, traces  # noqa: E402

ENTRIES = ("miopenExecuteFusionPlan", "miopenExecuteFusionPlan_v2")
# Each family's fused-solver switch (MIOpen's src/solver/batchnorm/*_fused.cpp).
SWITCH = {"bn_fwd_inference": "MIOPEN_DEBUG_BN_FWDINFER_ACTIV_FUSED", "bn_bwd": "MIOPEN_DEBUG_BN_BWDTRG_ACTIV_FUSED"}
# The plans whose driver line the wrapper writes (the others are declined under MIOPEN_ENABLE_LOGGING_CMD).
WRITES_LINE = {"bn_fwd_inference"}


def ran(binary, cases, backend, extra):
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5",
           "HIPDNN_BACKEND_LIBRARY_PATH": backend, **extra}
    r = run([binary, "--cases", str(cases), "--seed", "5"], env, timeout=120)
    if r.returncode != 0:
        fail(f"{binary} exited {r.returncode} under {extra}:\n{r.stderr[-2000:]}")
    return r


def executes(binary, cases, backend, extra):
    ex = [t for t in traces(ran(binary, cases, backend, extra).stderr) if t.entry in ENTRIES]
    if len(ex) != cases:
        fail(f"{len(ex)} execute trace lines for {cases} plans under {extra}")
    return ex


def switched_off(binary, cases, backend, switch, value):
    """MIOpen's fused solver switched off: the problems (none expected)."""
    r = ran(binary, cases, backend, {switch: value})
    compiles = [t for t in traces(r.stderr) if t.entry == "miopenCompileFusionPlan"]
    named = [t for t in compiles if t.target == PRIVATE and f"{switch}={value} (" in t.reason]
    steps = collections.Counter((c.get("step"), c.get("status")) for c in records(r.stdout, "case"))
    problems = []
    if any(t.target == HIPDNN for t in traces(r.stderr)) or not named:
        problems.append(f"{switch}={value}: a call forwarded, or no compile declined naming it: "
                        f"{summary(compiles)}")
    if any(t.entry in ENTRIES for t in traces(r.stderr)) or len(compiles) != cases or \
            set(steps) != {("compile", "miopenStatusUnsupportedOp")}:
        problems.append(f"{switch}={value}: every plan must fail to compile as on MIOpen "
                        f"(UnsupportedOp, no execute): {len(compiles)} compiles, outcomes {dict(steps)}")
    return problems


def summary(ex):
    return dict(collections.Counter(f"{t.target}: {t.reason.split(' (')[0]}" for t in ex))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--cases", type=int, default=60)
    ap.add_argument("--backend-dir", required=True, help="HIPDNN_BACKEND_LIBRARY_PATH")
    ap.add_argument("--expect-not-forwarded")
    ap.add_argument("--switch-value", default="0",
                    help="the value of the family's fused-solver switch that must switch the plans off "
                         "(negative control: 1)")
    ap.add_argument("--family", default="bn_fwd_inference", help="the plan's batchnorm family")
    ap.add_argument("--other-family", default="bn_fwd_training", help="a batchnorm family that leaves it forwarded")
    a = ap.parse_args()

    def go(extra):
        return executes(a.binary, a.cases, a.backend_dir, extra)

    def body():
        if a.expect_not_forwarded is not None:
            ex = go({"MIOPEN_DISABLE_HIPDNN_FOR": a.expect_not_forwarded})
            if any(t.target == HIPDNN for t in ex):
                return [f"MIOPEN_DISABLE_HIPDNN_FOR={a.expect_not_forwarded} left executes forwarded: {summary(ex)}"]
            return []
        problems = []
        ex = go({})
        if not any(t.target == HIPDNN for t in ex) or any(t.target != HIPDNN and not t.declined for t in ex):
            problems.append(f"enabled: every execute forwarded or declined, some forwarded: {summary(ex)}")
        for value in (a.family, "batchnorm"):
            ex = go({"MIOPEN_DISABLE_HIPDNN_FOR": value})
            named = [t for t in ex if t.target == PRIVATE and a.family in t.reason]
            if any(t.target == HIPDNN for t in ex) or not named:
                problems.append(f"MIOPEN_DISABLE_HIPDNN_FOR={value}: {summary(ex)}")
        for value in ("*", "convolution"):
            ex = go({"MIOPEN_DISABLE_HIPDNN_FOR": value})
            if not all(t.target == PRIVATE and t.reason.startswith("opted out") for t in ex):
                problems.append(f"MIOPEN_DISABLE_HIPDNN_FOR={value}: not every execute opted out: {summary(ex)}")
        ex = go({"MIOPEN_DISABLE_HIPDNN_FOR": a.other_family})
        if not any(t.target == HIPDNN for t in ex):
            problems.append(f"MIOPEN_DISABLE_HIPDNN_FOR={a.other_family} switched the fusion plans off: {summary(ex)}")
        ex = go({"MIOPEN_ENABLE_LOGGING_CMD": "1"})
        named = any("MIOPEN_ENABLE_LOGGING_CMD" in t.reason for t in ex)
        if a.family in WRITES_LINE and (not any(t.target == HIPDNN for t in ex) or named):
            problems.append(f"MIOPEN_ENABLE_LOGGING_CMD=1 kept the plans off hipDNN: {summary(ex)}")
        if a.family not in WRITES_LINE and (any(t.target == HIPDNN for t in ex) or not named):
            problems.append(f"MIOPEN_ENABLE_LOGGING_CMD=1: {summary(ex)}")
        switch = SWITCH[a.family]
        problems += switched_off(a.binary, a.cases, a.backend_dir, switch, a.switch_value)
        ex = go({switch: "1"})
        if not any(t.target == HIPDNN for t in ex):
            problems.append(f"{switch}=1 (MIOpen's default) switched the fusion plans off: {summary(ex)}")
        return problems

    return checked("check_bn_fusion_routing", body)


if __name__ == "__main__":
    sys.exit(main())
