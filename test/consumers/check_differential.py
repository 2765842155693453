#!/usr/bin/env python3
"""Differential test of a family: pass-through vs hipDNN.

Runs test/consumers/conv_differential, fusion_differential (the fusion-plan
API) or bn_differential (the batchnorm family's: its compute calls are
miopenBatchNormalizationForwardInference, …ForwardTraining or …Backward and
their _V2, directions `inf`, `trn`, `bnbwd`); the
program's name is the marker prefix; same --cases/--seed every time

  * once with MIOPEN_HIPDNN_FORWARDING=disabled (pass-through to MIOpen
    Private: the reference behaviour), and
  * once per hipDNN engine with forwarding enabled and MIOPEN_LOG_LEVEL=5:
    `reference` (the backend's default plugin directory, engine
    MINI_REFERENCE_ENGINE) and `provider` (HIPDNN_PLUGIN_DIR=<provider dir>,
    engine MIOPEN_ENGINE),

then parses the per-case stdout lines and the stderr trace split at the
`conv_differential: case <i>` markers, and requires:

  * no crash: every run exits 0 (1 means mismatches, listed per case; a
    signal is reported with the case it hit) and reports every case once;
  * every case `ok` in every run, or `rejected` with the same status at the
    same step in every run (an invalid or unsupported problem gets the status
    pass-through gives); the problem text is identical across runs;
  * in the enabled runs, each case's compute call
    (miopenConvolution{Forward,BackwardData,BackwardWeights}[Immediate]) has
    exactly one routing-trace line; a missing trace fails (the program did not
    run against the wrapper);
  * with --expect-forwarding: that line says `-> hipDNN` or
    `-> MIOpen Private (declined: ...)`, at least --min-forwarded of the cases
    whose buffers are 16-byte aligned are forwarded, no case with a
    misaligned buffer (`misaligned=` in its problem text: hipDNN's backend
    would reject it at execute) is, and each forwarded compute call ran on
    the run's engine
    (the test bed's MINI_HIPDNN_TEST_TRACE_EXECUTE lines; --no-engine-trace
    skips that for a real hipDNN). Without the flag any routing is accepted
    (for a wrapper whose forwarding set is still empty).

Prints per run: forwarded count (plan cache hit / miss), declined counts by
reason, other routes, rejected counts by status; exits non-zero on any
failure, naming each one.
"""
import argparse
import collections
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import DECLINED, HIPDNN, PRIVATE, environment, trace  # noqa: E402

# The per-case markers on stderr, named after the program (set in main).
MARKER = re.compile(r"^conv_differential: case (\d+)$")
DONE = re.compile(r"^conv_differential: done$")
EXECUTE = re.compile(r"^mini-hipdnn: execute on engine ([^,\s]+)")
CASE = re.compile(r"^case (\d+) (\S+) (\S+) (\S+) (.*) status=(\S+) step=(\S+) maxerr=(\S+) result=(\w+)(?: why=(\S+))?$")
SUMMARY = re.compile(r"^summary ok=(\d+) rejected=(\d+) mismatch=(\d+)$")
# Per-run details that may differ between runs (the algorithm Find ranks
# first, the workspace size reported, how many solutions a Find 2.0 search
# returned) are not part of the problem text.
VOLATILE = re.compile(r" (algo|solution|ws|found)=\S+")

ENGINES = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}
COMPUTE = {
    ("fwd", False): "miopenConvolutionForward",
    ("bwd", False): "miopenConvolutionBackwardData",
    ("wrw", False): "miopenConvolutionBackwardWeights",
    ("fwd", True): "miopenConvolutionForwardImmediate",
    ("bwd", True): "miopenConvolutionBackwardDataImmediate",
    ("wrw", True): "miopenConvolutionBackwardWeightsImmediate",
}
# fusion_differential: the execute call of each API version.
FUSION_COMPUTE = {"v1": "miopenExecuteFusionPlan", "v2": "miopenExecuteFusionPlan_v2"}
# bn_differential: direction `inf`, `trn` or `bnbwd` (--op; conv_differential's
# `bwd` is backward data), api `legacy` or `v2`.
BN_COMPUTE = {
    "inf": "miopenBatchNormalizationForwardInference",
    "trn": "miopenBatchNormalizationForwardTraining",
    "bnbwd": "miopenBatchNormalizationBackward",
}
# The compute call of a Find 2.0 case (--api find2), every direction.
FIND2_COMPUTE = "miopenRunSolution"
# Steps before a case's compute call: a case rejected there has no compute trace.
BEFORE_COMPUTE = {"create", "op", "compile", "args", "workspace"}


def compute_entry(c):
    """The entry point whose routing line a case has."""
    if c["api"] == "find2":
        return FIND2_COMPUTE
    if c["dir"] == "fusion":
        return FUSION_COMPUTE.get(c["api"])
    if c["dir"] in BN_COMPUTE:
        return BN_COMPUTE[c["dir"]] + ("_V2" if c["api"] == "v2" else "")
    return COMPUTE.get((c["dir"], c["api"] == "immediate"))


def hipdnn_may_run(a, b, c):
    """With --hipdnn-may-run S@STEP: the disabled run rejected the case with S
    at STEP (MIOpen has no kernel for it) and this run computed it (checked
    against the reference), or failed with the same S at the compute call
    (hipDNN compiled it, the compute call was declined, and MIOpen Private
    cannot run it either)."""
    if not a.hipdnn_may_run or f"{b['status']}@{b['step']}" != a.hipdnn_may_run:
        return None
    if c["result"] == "ok":
        return "computed by hipDNN where MIOpen has no kernel"
    if c["status"] == b["status"] and c["step"] not in BEFORE_COMPUTE:
        return f"{b['status']} at the compute call instead of {b['step']}"
    return None


def reason_bucket(reason):
    """Groups a routing reason for counting: the text up to the first ' (' or
    '=', digits folded, so `beta=0.5 (...)` and `beta=1 (...)` share a bucket.
    A `declined: ` prefix is kept; the cause after it is grouped the same way."""
    prefix = ""
    for p in (DECLINED, "opted out: "):
        if reason.startswith(p):
            prefix, reason = p, reason[len(p):]
            break
    cut = len(reason)
    for sep in (" (", "="):
        i = reason.find(sep)
        if i >= 0:
            cut = min(cut, i)
    return prefix + re.sub(r"\d+", "<n>", reason[:cut].strip())


class Run:
    def __init__(self, name, engine, env):
        self.name, self.engine, self.env = name, engine, env
        self.cases = {}        # index -> parsed stdout fields
        self.segments = {}     # index -> stderr lines after the case's marker
        self.problems = []
        self.timed_out = False


def parse(run, stdout, stderr, returncode, cases):
    p = run.problems
    if returncode < 0:
        try:
            sig = signal.Signals(-returncode).name
        except ValueError:
            sig = f"signal {-returncode}"
        last = max(run_markers(stderr), default=None)
        what = "TIMEOUT: killed" if run.timed_out else f"CRASH: killed by {sig}"
        p.append(f"{run.name}: {what} during case {last}")
    elif returncode not in (0, 1):
        p.append(f"{run.name}: exit status {returncode}; stderr tail:\n" + "\n".join(stderr[-20:]))
    summary = None
    for line in stdout:
        m = CASE.match(line)
        if m:
            i = int(m.group(1))
            if i in run.cases:
                p.append(f"{run.name}: case {i} reported twice")
            run.cases[i] = {
                "dir": m.group(2), "api": m.group(3), "type": m.group(4),
                "layout": m.group(5).split()[0], "rank": m.group(5).split()[1],
                "text": VOLATILE.sub("", " ".join(m.group(2, 3, 4, 5))),
                "status": m.group(6), "step": m.group(7), "maxerr": m.group(8),
                "result": m.group(9), "why": m.group(10), "line": line,
            }
        elif SUMMARY.match(line):
            summary = line
    mismatches = sum(1 for c in run.cases.values() if c["result"] == "mismatch")
    if returncode == 1 and not mismatches:
        p.append(f"{run.name}: exit status 1 but no case reported a mismatch")
    if returncode == 0 and mismatches:
        p.append(f"{run.name}: exit status 0 despite {mismatches} mismatches")
    missing = [i for i in range(cases) if i not in run.cases]
    if missing and returncode >= 0:
        p.append(f"{run.name}: {len(missing)} cases not reported (first: {missing[:5]})")
    if summary is None and returncode >= 0:
        p.append(f"{run.name}: no summary line (the program did not finish)")
    current = None
    for line in stderr:
        m = MARKER.match(line)
        if m:
            current = int(m.group(1))
            run.segments[current] = []
        elif DONE.match(line):
            current = None
        elif current is not None:
            run.segments[current].append(line)
    if returncode >= 0 and len(run.segments) != cases:
        p.append(f"{run.name}: {len(run.segments)} case markers on stderr, expected {cases}")


def run_markers(stderr):
    return [int(m.group(1)) for m in map(MARKER.match, stderr) if m]


def check_results(runs, base, a, allowed):
    """ok everywhere, or rejected with the disabled run's status and step
    (or an allowed difference, counted per run in `allowed`)."""
    problems = []
    for i in sorted(set().union(*(r.cases for r in runs))):
        b = base.cases.get(i)
        for r in runs:
            c = r.cases.get(i)
            if c is None:
                continue
            if c["result"] == "mismatch":
                problems.append(f"MISMATCH in {r.name} run: case {i}: maxerr={c['maxerr']} why={c['why']}\n"
                                f"    {c['line']}")
            if r is base or b is None:
                continue
            if c["text"] != b["text"]:
                problems.append(f"{r.name}: case {i} is a different problem than in {base.name} "
                                f"(same --seed?):\n    {c['line']}\n    {b['line']}")
            elif (c["status"], c["step"]) != (b["status"], b["step"]):
                why = hipdnn_may_run(a, b, c)
                if why:
                    allowed[r.name][why] += 1
                    continue
                problems.append(f"STATUS differs in {r.name} run: case {i}: {c['status']} at {c['step']}, "
                                f"{base.name}: {b['status']} at {b['step']}\n    {c['line']}")
    return problems


def check_routes(run, a):
    """The compute call's routing line per case; returns the per-run table."""
    p = run.problems
    table = {"forwarded": collections.Counter(), "declined": collections.Counter(),
             "other": collections.Counter(), "rejected": collections.Counter(),
             "coverage": collections.Counter(), "misaligned": collections.Counter()}
    engine = ENGINES[run.engine]
    for line in (l for seg in run.segments.values() for l in seg):
        m = EXECUTE.match(line)
        if m and m.group(1) != engine:
            p.append(f"{run.name}: a hipDNN execute ran on engine {m.group(1)}, expected {engine}")
            break
    forwarded = 0
    bad = collections.defaultdict(list)  # failure kind -> cases
    for i, c in sorted(run.cases.items()):
        seg = run.segments.get(i, [])
        entry = compute_entry(c)
        if entry is None:
            p.append(f"{run.name}: case {i}: unknown direction/api {c['dir']} {c['api']}")
            continue
        routes = [t for t in map(trace, seg) if t and t.entry == entry]
        if c["result"] == "rejected":
            table["rejected"][f"{c['status']} at {c['step']}"] += 1
            if c["step"] in BEFORE_COMPUTE and not routes:
                continue
        if len(routes) != 1:
            what = "no routing trace" if not routes else f"{len(routes)} routing-trace lines"
            bad[f"{what} for the compute call (is the program running against the wrapper, "
                f"with MIOPEN_LOG_LEVEL=5?)"].append(f"case {i} {entry}")
            continue
        target, reason = routes[0].target, routes[0].reason
        if "misaligned=" in c["text"]:
            # hipDNN's backend rejects such a pointer at execute: it must never get there.
            table["misaligned"][reason_bucket(reason) if target != HIPDNN else "FORWARDED"] += 1
            if target == HIPDNN:
                bad["a buffer off hipDNN's 16-byte tensor alignment was forwarded"].append(f"case {i} {entry}")
        if target == HIPDNN:
            forwarded += 1
            table["forwarded"][reason_bucket(reason)] += 1
            table["coverage"][(c["dir"], c["api"], c["type"], c["layout"], c["rank"])] += 1
            if a.expect_forwarding and not a.no_engine_trace and not any(EXECUTE.match(l) for l in seg):
                bad["compute call -> hipDNN but no hipDNN execute traced"].append(f"case {i} {entry}")
        elif target == PRIVATE and reason.startswith(DECLINED):
            table["declined"][reason_bucket(reason)] += 1
        else:
            table["other"][f"-> {target} ({reason_bucket(reason)})"] += 1
            if a.expect_forwarding:
                bad[f"compute call -> {target} ({reason_bucket(reason)}); expected -> hipDNN or "
                    f"-> MIOpen Private (declined: ...)"].append(f"case {i} {entry}")
    for what, where in bad.items():
        p.append(f"{run.name}: {what}: {len(where)} cases ({', '.join(where[:3])}"
                 f"{', ...' if len(where) > 3 else ''})")
    n = len(run.cases)
    # Cases with a deliberately misaligned buffer are declined by design:
    # the forwarded share is of the others.
    eligible = n - sum(table["misaligned"].values())
    if a.expect_forwarding and eligible and forwarded < a.min_forwarded * eligible:
        p.append(f"{run.name}: only {forwarded} of {eligible} cases with aligned buffers forwarded "
                 f"(< {a.min_forwarded:.0%}); forwarding is not really being tested")
    table["total"] = n
    table["forwarded_total"] = forwarded
    return table


def print_table(run, table):
    n = table["total"]
    print(f"\n== {run.name} (engine {ENGINES.get(run.engine, '-')}): {n} cases ==")
    print(f"  forwarded to hipDNN     {table['forwarded_total']:5d}")
    for k, v in sorted(table["forwarded"].items()):
        print(f"      {k:<64s} {v:5d}")
    print(f"  declined (MIOpen Private) {sum(table['declined'].values()):3d}")
    for k, v in table["declined"].most_common():
        print(f"      {k:<64s} {v:5d}")
    if table["other"]:
        print(f"  other routes            {sum(table['other'].values()):5d}")
        for k, v in table["other"].most_common():
            print(f"      {k:<64s} {v:5d}")
    if table["misaligned"]:
        print(f"  misaligned buffers      {sum(table['misaligned'].values()):5d}")
        for k, v in table["misaligned"].most_common():
            print(f"      {k:<64s} {v:5d}")
    print(f"  rejected, by status     {sum(table['rejected'].values()):5d}")
    for k, v in table["rejected"].most_common():
        print(f"      {k:<64s} {v:5d}")
    if table["coverage"]:
        by = collections.defaultdict(collections.Counter)
        for key, v in table["coverage"].items():
            for what, x in zip(("direction", "api", "type", "layout", "rank"), key):
                by[what][x] += v
        print("  forwarded by")
        for what, c in by.items():
            print(f"      {what:<10s} " + ", ".join(f"{x} {y}" for x, y in sorted(c.items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True, help="the conv_differential or fusion_differential program")
    ap.add_argument("--hipdnn-may-run", metavar="STATUS@STEP",
                    help="a disabled-run rejection hipDNN may compute instead (fusion: "
                    "miopenStatusUnsupportedOp@compile, MIOpen having no fused kernel)")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"),
                    help="HIPDNN_BACKEND_LIBRARY_PATH for the enabled runs (default: the environment's)")
    ap.add_argument("--provider-dir", help="HIPDNN_PLUGIN_DIR holding the MIOpen provider engine")
    ap.add_argument("--engines", default="reference,provider",
                    help="comma-separated enabled runs: reference, provider (default both)")
    ap.add_argument("--expect-forwarding", action="store_true",
                    help="require every compute call -> hipDNN or declined, and --min-forwarded of them forwarded")
    ap.add_argument("--min-forwarded", type=float, default=0.8)
    ap.add_argument("--no-engine-trace", action="store_true",
                    help="do not require the test bed's per-execute engine trace (for a real hipDNN)")
    ap.add_argument("--corrupt-case", type=int, help="passed to the program (negative test)")
    ap.add_argument("--api", choices=("legacy", "find2"), default="legacy",
                    help="passed to the program: its legacy sequences, or every case through Find 2.0")
    ap.add_argument("--op", choices=("inference", "training", "backward"),
                    help="passed to bn_differential: the batchnorm operation its cases call")
    ap.add_argument("--ld-library-path", help="prepended to LD_LIBRARY_PATH in every run (negative test: "
                    "a library without the wrapper)")
    ap.add_argument("--work-dir", help="user dbs and run logs (default: a temporary directory)")
    ap.add_argument("--jobs", type=int, default=min(3, os.cpu_count() or 1), help="runs at a time")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run before it is killed")
    a = ap.parse_args()
    global MARKER, DONE
    program = os.path.basename(a.binary)
    MARKER = re.compile(rf"^{re.escape(program)}: case (\d+)$")
    DONE = re.compile(rf"^{re.escape(program)}: done$")

    engines = [e for e in a.engines.split(",") if e]
    for e in engines:
        if e not in ENGINES:
            ap.error(f"unknown engine {e}")
    if "provider" in engines and not a.provider_dir:
        ap.error("--provider-dir is needed for the provider engine")
    if not a.backend_dir:
        ap.error("--backend-dir or HIPDNN_BACKEND_LIBRARY_PATH is needed")
    if not os.path.isabs(a.backend_dir):
        ap.error("--backend-dir must be absolute (the wrapper ignores a relative HIPDNN_BACKEND_LIBRARY_PATH)")

    work = os.path.abspath(a.work_dir or tempfile.mkdtemp(prefix="conv-differential-"))
    os.makedirs(work, exist_ok=True)
    # Each run gets a user db of its own (Find records persist there; runs
    # going on at the same time must not share the file), emptied first:
    # under MIOPEN_USER_DB_PATH when set, named after the work directory so
    # that concurrent checkers do not collide, else in the work directory.
    db_root = os.environ.get("MIOPEN_USER_DB_PATH")
    db_prefix = (os.path.join(db_root, os.path.basename(work) + "-") if db_root
                 else os.path.join(work, "user-db-"))
    base_env = environment({"MIOPEN_USER_DB_PATH": None})
    if a.ld_library_path:
        base_env["LD_LIBRARY_PATH"] = os.pathsep.join(
            x for x in (a.ld_library_path, os.environ.get("LD_LIBRARY_PATH")) if x)

    runs = [Run("disabled", None, {"MIOPEN_HIPDNN_FORWARDING": "disabled"})]
    for e in engines:
        env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5",
               "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir,
               "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": ENGINES[e],
               "MINI_HIPDNN_TEST_TRACE_EXECUTE": "1"}
        if e == "provider":
            env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
        runs.append(Run(f"enabled-{e}", e, env))

    args = [a.binary, "--cases", str(a.cases), "--seed", str(a.seed)]
    if a.api != "legacy":  # fusion_differential has one API and takes no --api
        args += ["--api", a.api]
    if a.op:
        args += ["--op", a.op]
    if a.corrupt_case is not None:
        args += ["--corrupt-case", str(a.corrupt_case)]
    started = time.monotonic()
    pending = list(runs)
    active = []
    while pending or active:
        while pending and len(active) < max(1, a.jobs):
            r = pending.pop(0)
            db = db_prefix + r.name
            shutil.rmtree(db, ignore_errors=True)
            os.makedirs(db)
            env = dict(base_env, MIOPEN_USER_DB_PATH=db, **r.env)
            out = open(os.path.join(work, f"{r.name}.stdout"), "w")
            err = open(os.path.join(work, f"{r.name}.stderr"), "w")
            r.started = time.monotonic()
            active.append((r, subprocess.Popen(args, env=env, stdout=out, stderr=err), out, err))
        time.sleep(0.02)
        for item in list(active):
            r, proc, out, err = item
            if proc.poll() is None:
                if time.monotonic() - r.started > a.timeout:
                    r.timed_out = True
                    proc.kill()
                continue
            out.close()
            err.close()
            active.remove(item)
            with open(out.name, errors="replace") as f:
                stdout = f.read().splitlines()
            with open(err.name, errors="replace") as f:
                stderr = f.read().splitlines()
            parse(r, stdout, stderr, proc.returncode, a.cases)
    elapsed = time.monotonic() - started

    base = runs[0]
    problems = [x for r in runs for x in r.problems]
    allowed = collections.defaultdict(collections.Counter)
    problems += check_results(runs, base, a, allowed)
    tables = []
    for r in runs[1:]:
        r.problems = []
        tables.append((r, check_routes(r, a)))
        problems += r.problems

    dis = collections.Counter(c["result"] for c in base.cases.values())
    through = f" through the {a.api} API" if a.api != "legacy" else ""
    print(f"{program}{through}: {a.cases} cases, seed {a.seed}, {len(runs)} runs in {elapsed:.1f} s "
          f"(logs in {work})")
    print(f"== disabled (pass-through): ok {dis['ok']}, rejected {dis['rejected']}, mismatch {dis['mismatch']}")
    rej = collections.Counter(f"{c['status']} at {c['step']}" for c in base.cases.values()
                              if c["result"] == "rejected")
    for k, v in rej.most_common():
        print(f"      {k:<64s} {v:5d}")
    for r, t in tables:
        print_table(r, t)
        for k, v in allowed[r.name].most_common():
            print(f"  allowed difference: {k:<48s} {v:5d}")
    if not a.expect_forwarding:
        print("\n(--expect-forwarding not given: routing to MIOpen Private is accepted)")
    if problems:
        print(f"\ncheck_differential: FAILED ({len(problems)} problems)")
        for x in problems[:40]:
            print(f"FAIL: {x}")
        if len(problems) > 40:
            print(f"... and {len(problems) - 40} more")
        return 1
    print("\ncheck_differential: PASSED")
    if not a.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
