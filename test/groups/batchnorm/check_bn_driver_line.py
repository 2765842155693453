#!/usr/bin/env python3
"""MIOPEN_ENABLE_LOGGING_CMD for the batchnorm family (a build whose
forwarding set has it).

Runs bn_differential (random inference problems: legacy and _V2, 4-D/5-D,
NCHW/NHWC/padded, fp32/fp16/bf16, some invalid) with
MIOPEN_ENABLE_LOGGING_CMD=1 against
  baseline  the pre-wrapper libMIOpen.so.1 (LD_LIBRARY_PATH)
  disabled  the wrapper, MIOPEN_HIPDNN_FORWARDING=disabled
  enabled   the wrapper, forwarding enabled, the routing trace on
            (MIOPEN_HIPDNN_LOG_ROUTING=1)
and requires MIOpen's lines on stderr (the wrapper's own
`MIOpen(hipDNN wrapper):` lines left out, pointer values removed)
byte-identical across the three although the enabled run forwarded most
calls: the wrapper wrote MIOpen's `[LogCmdBNorm] ... bnorm` line for each.
The lines the wrapper wrote (each is the driver line just before a
forwarded call's trace line) must cover both entry points, 4-D and 5-D,
a channels-last layout and the fp16/bf16 sub-commands.

--drop-wrapper-lines (negative control) removes the lines the wrapper wrote
from the enabled run; the comparison must then fail.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from wrapper_test import (DRIVER, checked, driver_lines_written_by_wrapper, fail, miopen_lines, run,  # noqa: E402
                          unified_diff)

ENTRIES = ("miopenBatchNormalizationForwardInference", "miopenBatchNormalizationForwardInference_V2")
# What the wrapper's lines must cover: a substring of the line for each.
KINDS = {"4-D": " -H ", "5-D": " -D ", "channels last": "HWC", "fp16": "bnormfp16", "bf16": "bnormbfp16",
         "estimates (-s 1)": " -s 1 "}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="bn_differential")
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--backend-dir", required=True, help="HIPDNN_BACKEND_LIBRARY_PATH")
    ap.add_argument("--cases", type=int, default=80)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--drop-wrapper-lines", action="store_true", help="negative control")
    a = ap.parse_args()
    return checked("check_bn_driver_line", lambda: compare(a))


def compare(a):
    loud = {"MIOPEN_ENABLE_LOGGING_CMD": "1", "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    modes = {"baseline": {"LD_LIBRARY_PATH": a.baseline_dir},
             "disabled": {"MIOPEN_HIPDNN_FORWARDING": "disabled"},
             "enabled": {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1"}}
    logs = {}
    for mode, env in modes.items():
        r = run([a.binary, "--cases", str(a.cases), "--seed", str(a.seed)], {**loud, **env}, timeout=300)
        if r.returncode != 0:
            fail(f"{a.binary} exited {r.returncode} ({mode}):\n{r.stderr[-2000:]}")
        logs[mode] = r.stderr
    mine = [(i, t.entry) for i, t in driver_lines_written_by_wrapper(logs["enabled"])]
    lines = logs["enabled"].splitlines()
    written = [lines[i] for i, _ in mine]
    if a.drop_wrapper_lines:
        drop = {i for i, _ in mine}
        logs["enabled"] = "\n".join(l for i, l in enumerate(lines) if i not in drop) + "\n"
    base = miopen_lines(logs["baseline"])
    commands = [l for l in base.splitlines() if DRIVER in l]
    problems = []
    if len(commands) < a.cases or any("[LogCmdBNorm] ./bin/MIOpenDriver bnorm" not in l for l in commands):
        problems.append(f"the baseline logged {len(commands)} MIOpenDriver lines for {a.cases} calls "
                        "(MIOPEN_ENABLE_LOGGING_CMD not honoured, or not every one a LogCmdBNorm line)")
    missing = [k for k, needle in KINDS.items() if not any(needle in l + " " for l in written)]
    entries = {e for _, e in mine}
    if len(written) < a.cases // 2 or missing or entries != set(ENTRIES):
        problems.append(f"the enabled run's wrapper wrote {len(written)} driver lines; not covered: {missing}; "
                        f"entry points: {sorted(entries)}")
    for mode in ("disabled", "enabled"):
        got = miopen_lines(logs[mode])
        if got != base:
            problems.append(f"MIOpen's driver command lines differ: baseline vs {mode}\n"
                            f"{unified_diff(base, got, 'baseline', mode)}")
    if not problems:
        print(f"MIOpen's stderr byte-identical across baseline, disabled and enabled: {len(commands)} "
              f"MIOpenDriver bnorm lines, {len(written)} of them written by the wrapper for forwarded calls")
    return problems


if __name__ == "__main__":
    sys.exit(main())
