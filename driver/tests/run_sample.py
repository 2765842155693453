#!/usr/bin/env python3
"""Runs MIOpenDriver command lines in the three configurations.

Each line of the sample files (MIOpen model-list lines, MIOPEN_ENABLE_LOGGING_CMD
lines) runs, unchanged but for `-i 1 -V 1` appended, against
  baseline  the pre-wrapper libMIOpen.so.1 (LD_LIBRARY_PATH),
  disabled  the wrapper, MIOPEN_HIPDNN_FORWARDING=disabled,
  enabled   the wrapper, MIOPEN_HIPDNN_FORWARDING=enabled (HIPDNN_BACKEND_LIBRARY_PATH
            from --backend-dir, by default the environment's).
Every run must exit 0 with every direction it asked for verified (PASS) by the
driver's own reference, and its routing must match the configuration: no
wrapper in the baseline; every call on MIOpen Private when disabled; every
convolution compute call executed by hipDNN (or declined with a reason) when
enabled, as the wrapper's exit summary says. Before that, command lines the
driver must refuse (unknown or unsupported flags) must exit 16 naming the flag.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "test", "lib"))
from wrapper_test import EXIT_SUMMARY, PREFIX, environment as scrubbed, summary_rows, verdict  # noqa: E402

# The convolution compute entry points (the exit summary's rows counted).
COMPUTE = {f"miopenConvolution{d}{i}" for d in ("Forward", "BackwardData", "BackwardWeights") for i in ("", "Immediate")}
DIRECTIONS = {1: "fwd", 2: "bwd", 4: "wrw"}
REFUSED = [  # (arguments, what the error must name)
    (["conv", "--bogus", "1"], "--bogus"),
    (["conv", "-K", "1"], "-K"),
    (["conv", "--in_data", "x.bin"], "--in_data"),
    (["conv", "-U", "fp8"], "--in_cast_type"),
    (["conv", "--trans_output_pad_h", "1"], "--trans_output_pad_h"),
    (["conv", "-S", "ConvDirectNaiveConvFwd"], "--solution"),
    (["conv", "-n"], "-n"),
    (["conv", "-n", "two"], "--batchsize"),
    (["convint8", "-n", "1"], "convint8"),
    (["conv", "-G", "1", "-V", "1"], "--gpualloc"),
]


def environment(config, args):
    env = {}
    if config == "baseline":
        env["LD_LIBRARY_PATH"] = args.baseline_dir
        env["MIOPEN_HIPDNN_FORWARDING"] = "enabled"  # must have no effect without the wrapper
    else:
        env["MIOPEN_HIPDNN_FORWARDING"] = config
    if config == "enabled":
        if args.backend_dir:
            env["HIPDNN_BACKEND_LIBRARY_PATH"] = args.backend_dir
        for kv in args.enabled_env:
            k, v = kv.split("=", 1)
            env[k] = v
    if args.corrupt:
        env["MIOPEN_DRIVER_CORRUPT_OUTPUT"] = args.corrupt
    return scrubbed(env)


def summary(stderr):
    """The exit summary's rows (entry point, decision, calls), and whether there is one."""
    rows = [(entry, decision, n) for (entry, decision), n in summary_rows(stderr).items()]
    return rows, any(line.startswith(EXIT_SUMMARY) for line in stderr.splitlines())


def check_routing(config, out, err):
    rows, has_summary = summary(err)
    if config == "baseline":
        if "pre-wrapper MIOpen" not in out or PREFIX in err:
            return "the baseline run has a wrapper in the process"
        return None
    if not has_summary:
        return "no exit summary from the wrapper"
    compute = [r for r in rows if r[0] in COMPUTE]
    if not compute:
        return "the exit summary lists no convolution compute call"
    if config == "disabled":
        bad = [r for r in rows if r[1] != "forwarding disabled (MIOpen Private)"]
        return f"not all calls on MIOpen Private: {bad}" if bad else None
    bad = [r for r in compute if r[1] not in ("forwarded (hipDNN)", "declined (MIOpen Private)")]
    return f"convolution calls not executed by hipDNN: {bad}" if bad else None


def expected_directions(argv):
    forw = 0
    for flag, value in zip(argv, argv[1:]):
        if flag in ("-F", "--forw"):
            forw = int(value)
    return [name for bit, name in DIRECTIONS.items() if forw == 0 or forw & bit]


def run_line(line, config, args):
    argv = line.split()[1:] + ["-i", "1", "-V", "1"]
    p = subprocess.run([args.driver] + argv, env=environment(config, args), capture_output=True, text=True,
                       timeout=300)
    result = re.search(r"^Result:(.*)$", p.stdout, re.M)
    verdicts = dict(kv.split("=") for kv in result.group(1).split()) if result else {}
    want = expected_directions(argv)
    problems = []
    if p.returncode != 0:
        problems.append(f"exit status {p.returncode}")
    missing = [d for d in want if verdicts.get(d) != "PASS"]
    if missing:
        problems.append(f"verification FAILED or missing for {missing} (Result:{result.group(1) if result else ''})")
    routing = check_routing(config, p.stdout, p.stderr)
    if routing:
        problems.append(routing)
    forwarded = sum(r[2] for r in summary(p.stderr)[0] if r[0] in COMPUTE and r[1] == "forwarded (hipDNN)")
    declined = sum(r[2] for r in summary(p.stderr)[0] if r[0] in COMPUTE and "declined" in r[1])
    return problems, forwarded, declined, p.stdout + p.stderr


def check_refusals(driver):
    for argv, name in REFUSED:
        p = subprocess.run([driver] + argv, env=scrubbed(), capture_output=True, text=True)
        if p.returncode != 16 or name not in p.stderr:
            return [f"MIOpenDriver {' '.join(argv)} must exit 16 naming {name}; got {p.returncode}: {p.stderr.strip()}"]
    print(f"refused as expected: {len(REFUSED)} command lines (unknown or unsupported flags)")
    return []


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--sample", action="append", required=True)
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--configs", default="baseline,disabled,enabled")
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"),
                    help="HIPDNN_BACKEND_LIBRARY_PATH of the enabled runs (default: the environment's)")
    ap.add_argument("--enabled-env", action="append", default=[], help="K=V added to the enabled runs")
    ap.add_argument("--corrupt", help="negative test: the driver perturbs this direction's output")
    ap.add_argument("--limit", type=int, default=0, help="only the first N lines")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()

    refused = check_refusals(args.driver)
    if refused:
        return verdict("run_sample", refused)
    lines = [l.strip() for s in args.sample for l in open(s) if "MIOpenDriver " in l and not l.startswith("#")]
    if args.limit:
        lines = lines[:args.limit]
    work = [(l, c) for l in lines for c in args.configs.split(",")]
    failures, forwarded, declined = [], 0, 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for (line, config), (problems, fwd, dec, output) in zip(work, pool.map(lambda w: run_line(*w, args), work)):
            forwarded += fwd
            declined += dec
            if problems:
                failures.append(f"[{config}] {line}\n  " + "\n  ".join(problems) + "\n  output:\n" +
                                "\n".join("    " + o for o in output.splitlines()[-25:]))
    print(f"{len(lines)} command lines x {len(args.configs.split(','))} configurations: {len(failures)} failed; "
          f"enabled runs: {forwarded} convolution calls executed by hipDNN, {declined} declined to MIOpen Private")
    if "enabled" in args.configs and forwarded == 0:
        failures.append("nothing was executed by hipDNN in the enabled runs")
    return verdict("run_sample", failures)


if __name__ == "__main__":
    sys.exit(main())
