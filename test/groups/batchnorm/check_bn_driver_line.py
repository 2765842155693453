#!/usr/bin/env python3
"""MIOPEN_ENABLE_LOGGING_CMD for the batchnorm family (a build whose
forwarding set has it).

Runs bn_differential once per direction (--op inference, training,
backward: random problems, legacy and _V2, 4-D/5-D, NCHW/NHWC/padded,
fp32/fp16/bf16, some invalid or declined) with MIOPEN_ENABLE_LOGGING_CMD=1
against
  baseline  the pre-wrapper libMIOpen.so.1 (LD_LIBRARY_PATH)
  disabled  the wrapper, MIOPEN_HIPDNN_FORWARDING=disabled
  enabled   the wrapper, forwarding enabled, the routing trace on
            (MIOPEN_HIPDNN_LOG_ROUTING=1)
and requires MIOpen's lines on stderr (the wrapper's own
`MIOpen(hipDNN wrapper):` lines left out, pointer values removed)
byte-identical across the three although the enabled run forwarded most
calls: the wrapper wrote MIOpen's `[LogCmdBNorm] ... bnorm` line for each.
The lines the wrapper wrote (each is the driver line just before a
forwarded call's trace line) must cover, per direction, both entry points,
4-D and 5-D, a channels-last layout, the fp16/bf16 sub-commands and the
direction's flags (inference: `-s 1`; training and backward: with and
without `-r 1`).

With --fusion-binary (bn_fusion_differential), a fourth run, `fusion`: the
batchnorm inference -> activation fusion plan, whose execute MIOpen logs as
`[LogCmdFusion] ... CBAInfer -J 2 ... -I 0`; the wrapper writes it for the
forwarded executes of both entry points (fp32 and fp16 plans; MIOpen runs
the others and writes theirs).

--drop-wrapper-lines (negative control) removes the lines the wrapper wrote
from the enabled runs; the comparison must then fail for every direction.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from wrapper_test import (DRIVER, checked, driver_lines_written_by_wrapper, fail, miopen_lines, run,  # noqa: E402
                          unified_diff)

OPS = ("inference", "training", "backward")
ENTRY = {"inference": "miopenBatchNormalizationForwardInference",
         "training": "miopenBatchNormalizationForwardTraining",
         "backward": "miopenBatchNormalizationBackward",
         "fusion": "miopenExecuteFusionPlan"}
# The entry points whose lines the wrapper writes: each op's legacy call and its _V2 / _v2.
SUFFIX = {"fusion": "_v2"}
# MIOpen's logger and sub-command of each op's lines.
LOGGER = {"fusion": "[LogCmdFusion] ./bin/MIOpenDriver CBAInfer"}
LOGGER_BNORM = "[LogCmdBNorm] ./bin/MIOpenDriver bnorm"
# What the wrapper's lines must cover: a test of the line (with a space
# appended) for each, the ones of every direction and the direction's own.
KINDS = {"4-D": lambda l: " -H " in l and " -D " not in l, "5-D": lambda l: " -D " in l,
         "channels last": lambda l: "HWC " in l, "fp16": lambda l: "bnormfp16" in l,
         "bf16": lambda l: "bnormbfp16" in l}
DIRECTION = {
    "inference": {"--forw 2 -b 0": lambda l: " --forw 2 -b 0 " in l, "estimates (-s 1)": lambda l: " -s 1 " in l},
    "training": {"--forw 1 -b 0": lambda l: " --forw 1 -b 0 " in l, "saved (-r 1)": lambda l: " -r 1 " in l,
                 "not saved": lambda l: " -r 1 " not in l},
    "backward": {"--forw 0 -b 1": lambda l: " --forw 0 -b 1 " in l, "saved (-r 1)": lambda l: " -r 1 " in l,
                 "not saved": lambda l: " -r 1 " not in l},
}
# A forwarded plan is 4-D, fp32 or fp16 (both CBAInfer: MIOpen names bf16 alone).
FUSION_KINDS = {"4-D": lambda l: " -H " in l and " -D " not in l, "-J 2": lambda l: " CBAInfer -J 2 -n " in l,
                "-I 0": lambda l: l.endswith(" -I 0 "), "spatial (-m 1)": lambda l: " -m 1 " in l}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="bn_differential")
    ap.add_argument("--fusion-binary", help="bn_fusion_differential: the fusion plan's lines too")
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--backend-dir", required=True, help="HIPDNN_BACKEND_LIBRARY_PATH")
    ap.add_argument("--cases", type=int, default=80)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--drop-wrapper-lines", action="store_true", help="negative control")
    a = ap.parse_args()
    return checked("check_bn_driver_line", lambda: compare(a))


def compare(a):
    problems, counts, differ = [], [], {"disabled": [], "enabled": []}
    for op in OPS + (("fusion",) if a.fusion_binary else ()):
        problems += compare_op(a, op, counts, differ)
    for mode, ops in differ.items():
        if ops:
            problems.append(f"MIOpen's driver command lines differ: baseline vs {mode} in {', '.join(ops)}")
    if not problems:
        total, mine = sum(c for _, c, _ in counts), sum(w for _, _, w in counts)
        print(f"MIOpen's stderr byte-identical across baseline, disabled and enabled: {total} MIOpenDriver "
              f"lines, {mine} of them written by the wrapper for forwarded calls ("
              + ", ".join(f"{op} {c} lines, {w} by the wrapper" for op, c, w in counts) + ")")
    return problems


def compare_op(a, op, counts, differ):
    loud = {"MIOPEN_ENABLE_LOGGING_CMD": "1", "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    modes = {"baseline": {"LD_LIBRARY_PATH": a.baseline_dir},
             "disabled": {"MIOPEN_HIPDNN_FORWARDING": "disabled"},
             "enabled": {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1"}}
    logs = {}
    for mode, env in modes.items():
        which = [a.fusion_binary] if op == "fusion" else [a.binary, "--op", op]
        cmd = which + ["--cases", str(a.cases), "--seed", str(a.seed)]
        r = run(cmd, {**loud, **env}, timeout=300)
        if r.returncode != 0:
            fail(f"{a.binary} --op {op} exited {r.returncode} ({mode}):\n{r.stderr[-2000:]}")
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
    logger = LOGGER.get(op, LOGGER_BNORM)
    # A plan MIOpen fails to compile is never executed: no line (the program's plans mostly compile).
    least = a.cases // 2 if op == "fusion" else a.cases
    if len(commands) < least or any(logger not in l for l in commands):
        problems.append(f"{op}: the baseline logged {len(commands)} MIOpenDriver lines for {a.cases} calls "
                        f"(MIOPEN_ENABLE_LOGGING_CMD not honoured, or not every one a {logger} line)")
    kinds = FUSION_KINDS if op == "fusion" else {**KINDS, **DIRECTION[op]}
    missing = [k for k, has in kinds.items() if not any(has(l + " ") for l in written)]
    entries, want = {e for _, e in mine}, {ENTRY[op], ENTRY[op] + SUFFIX.get(op, "_V2")}
    if len(written) < a.cases // 2 or missing or entries != want:
        problems.append(f"{op}: the enabled run's wrapper wrote {len(written)} driver lines; not covered: {missing}; "
                        f"entry points: {sorted(entries)}")
    for mode in ("disabled", "enabled"):
        got = miopen_lines(logs[mode])
        if got != base:
            differ[mode].append(op)
            problems.append(f"{op}: baseline vs {mode}\n{unified_diff(base, got, 'baseline', mode)}")
    counts.append((op, len(commands), len(written)))
    return problems


if __name__ == "__main__":
    sys.exit(main())
