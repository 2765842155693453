#!/usr/bin/env python3
"""Differential test of a family: pass-through vs hipDNN, from its manifest.

A family's manifest (test/consumers/differential/<group>.json; docs/testing.md,
"Differential manifests") names its program (conv_differential,
fusion_differential, bn_differential, ...), the program arguments of each
variant, the compute entry point of each "<direction> <api>", the steps
before the compute call, the tolerance of each storage type, the share that
must be forwarded, and its CTests with their negatives. This checker runs the
program with the same --cases/--seed

  * once with MIOPEN_HIPDNN_FORWARDING=disabled (pass-through to MIOpen
    Private: the reference behaviour), and
  * once per hipDNN engine with forwarding enabled and MIOPEN_LOG_LEVEL=5:
    `reference` (the backend's default plugin directory, engine
    MINI_REFERENCE_ENGINE) and `provider` (HIPDNN_PLUGIN_DIR=<provider dir>,
    engine MIOPEN_ENGINE),

reads each run's `case` records (test/lib/protocol.py) and its stderr split
per case at the `begin` markers, and requires:

  * no crash: every run exits 0 (1 means mismatches, listed per case; a
    signal is reported with the case it hit), reports every case once and a
    `summary` whose counts are the records';
  * each record consistent with the manifest: its compute entry point is the
    manifest's for its direction and API, its tolerance the manifest's for
    its storage types (the largest), an `ok` case within it and a
    `tolerance` mismatch outside it;
  * every case `ok` in every run, or `rejected` with the same status at the
    same step in every run (an invalid or unsupported problem gets the status
    pass-through gives; the manifest's `hipdnn_may_run` names a rejection
    hipDNN may compute instead); the problem is identical across runs;
  * in the enabled runs, each case's compute call has exactly one
    routing-trace line (a case rejected before its compute call may have
    none); a missing trace fails (the program did not run against the
    wrapper);
  * with --expect-forwarding: that line says `-> hipDNN` or
    `-> MIOpen Private (declined: ...)`, at least the variant's
    min_forwarded of the cases whose buffers are 16-byte aligned are
    forwarded, no case with a misaligned buffer (hipDNN's backend would
    reject it at execute) is, and each forwarded compute call ran on the
    run's engine (the test bed's MINI_HIPDNN_TEST_TRACE_EXECUTE lines;
    --no-engine-trace skips that for a real hipDNN). Without the flag any
    routing is accepted (for a wrapper whose forwarding set is still empty).

Prints per run: forwarded count (plan cache hit / miss), declined counts by
reason, other routes, rejected counts by status; exits non-zero on any
failure, naming each one.
"""
import argparse
import collections
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import ProtocolError, Run, number  # noqa: E402
from wrapper_test import DECLINED, HIPDNN, PRIVATE, environment, trace, verdict  # noqa: E402

# The test bed's execute trace (MINI_HIPDNN_TEST_TRACE_EXECUTE=1).
EXECUTE = re.compile(r"^mini-hipdnn: execute on engine ([^,\s]+)")
ENGINES = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}
# What a case is across runs: everything but the measured error and the per-run detail.
PROBLEM_FIELDS = ("dir", "api", "type", "layout", "rank", "entry", "problem", "misaligned", "types", "tol")
MANIFEST_KEYS = {"about", "program", "needs_group", "labels", "engines", "compute", "before_compute",
                 "hipdnn_may_run", "tolerances", "variants", "tests"}


def load_manifest(path):
    with open(path) as f:
        m = json.load(f)
    unknown = set(m) - MANIFEST_KEYS
    missing = {"program", "compute", "before_compute", "tolerances", "variants", "tests"} - set(m)
    if unknown or missing:
        sys.exit(f"check_differential: {path}: unknown keys {sorted(unknown)}, missing {sorted(missing)}")
    return m


def hipdnn_may_run(m, b, c):
    """With the manifest's hipdnn_may_run S@STEP: the disabled run rejected
    the case with S at STEP (MIOpen has no kernel for it) and this run
    computed it (checked against the reference), or failed with the same S at
    the compute call (hipDNN compiled it, the compute call was declined, and
    MIOpen Private cannot run it either)."""
    allowed = m.get("hipdnn_may_run")
    if not allowed or f"{b['status']}@{b['step']}" != allowed:
        return None
    if c["result"] == "ok":
        return "computed by hipDNN where MIOpen has no kernel"
    if c["status"] == b["status"] and c["step"] not in m["before_compute"]:
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


def short(c):
    return f"{c['problem']} status={c['status']} step={c['step']} result={c['result']}"


def check_run(run, m, cases):
    """Exit status, every case once, the summary, each record against the manifest."""
    p = []
    if run.crashed:
        p.append(f"{run.name}: {'TIMEOUT' if run.timed_out else 'CRASH'}: {run.crashed} during case {run.last_begun}")
    elif run.returncode not in (0, 1):
        p.append(f"{run.name}: exit status {run.returncode}; stderr tail:\n" + "\n".join(run.err[-20:]))
    for i in run.duplicates():
        p.append(f"{run.name}: case {i} reported twice")
    by = run.cases
    tally = collections.Counter(c["result"] for c in by.values())
    if run.returncode == 1 and not tally["mismatch"]:
        p.append(f"{run.name}: exit status 1 but no case reported a mismatch")
    if run.returncode == 0 and tally["mismatch"]:
        p.append(f"{run.name}: exit status 0 despite {tally['mismatch']} mismatches")
    if run.crashed:
        return p
    missing = [i for i in range(cases) if i not in by]
    if missing:
        p.append(f"{run.name}: {len(missing)} cases not reported (first: {missing[:5]})")
    summary = run.of("summary")
    if len(summary) != 1:
        p.append(f"{run.name}: {len(summary)} summary records (the program did not finish?)")
    elif {k: summary[0].get(k) for k in ("ok", "rejected", "mismatch")} != {k: tally[k] for k in ("ok", "rejected", "mismatch")}:
        p.append(f"{run.name}: the summary {summary[0]} is not the cases' {dict(tally)}")
    if len(run.segments) != cases:
        p.append(f"{run.name}: {len(run.segments)} case markers on stderr, expected {cases}")
    for i, c in sorted(by.items()):
        p += check_record(run.name, i, c, m)
    return p


def check_record(name, i, c, m):
    """One record against the manifest: its compute entry point and tolerance,
    and its result against its own measured error."""
    out = []
    want_entry = m["compute"].get(f"{c['dir']} {c['api']}")
    if want_entry is None or c["entry"] != want_entry:
        out.append(f"{name}: case {i}: compute entry {c['entry']} for {c['dir']} {c['api']}, "
                   f"the manifest says {want_entry}")
    unknown = [t for t in c["types"] if t not in m["tolerances"]]
    want_tol = None if unknown or not c["types"] else max(m["tolerances"][t] for t in c["types"])
    if c["tol"] != want_tol:
        out.append(f"{name}: case {i}: tolerance {c['tol']} for types {c['types']}, the manifest says {want_tol}")
    err = number(c["maxerr"])
    if c["result"] == "ok" and not (err <= c["tol"] and c["status"] == "miopenStatusSuccess"):
        out.append(f"{name}: case {i}: `ok` with maxerr={err:.3g} (tolerance {c['tol']}), status {c['status']}")
    if "tolerance" in c["why"] and not err > c["tol"]:
        out.append(f"{name}: case {i}: a tolerance mismatch with maxerr={err:.3g} within {c['tol']}")
    if c["result"] == "rejected" and c["status"] == "miopenStatusSuccess":
        out.append(f"{name}: case {i}: `rejected` with status success")
    return out


def check_results(runs, base, m, allowed):
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
                problems.append(f"MISMATCH in {r.name} run: case {i}: maxerr={number(c['maxerr']):.3g} "
                                f"why={','.join(c['why'])}\n    {short(c)}")
            if r is base or b is None:
                continue
            if any(c[k] != b[k] for k in PROBLEM_FIELDS):
                problems.append(f"{r.name}: case {i} is a different problem than in {base.name} "
                                f"(same --seed?):\n    {c['problem']}\n    {b['problem']}")
            elif (c["status"], c["step"]) != (b["status"], b["step"]):
                why = hipdnn_may_run(m, b, c)
                if why:
                    allowed[r.name][why] += 1
                    continue
                problems.append(f"STATUS differs in {r.name} run: case {i}: {c['status']} at {c['step']}, "
                                f"{base.name}: {b['status']} at {b['step']}\n    {short(c)}")
    return problems


def check_routes(run, a, m, min_forwarded):
    """The compute call's routing line per case; returns (the per-run table, problems)."""
    p = []
    table = {"forwarded": collections.Counter(), "declined": collections.Counter(),
             "other": collections.Counter(), "rejected": collections.Counter(),
             "coverage": collections.Counter(), "misaligned": collections.Counter()}
    engine = ENGINES[run.engine]
    for line in (l for seg in run.segments.values() for l in seg):
        e = EXECUTE.match(line)
        if e and e.group(1) != engine:
            p.append(f"{run.name}: a hipDNN execute ran on engine {e.group(1)}, expected {engine}")
            break
    forwarded = 0
    bad = collections.defaultdict(list)  # failure kind -> cases
    for i, c in sorted(run.cases.items()):
        seg = run.segments.get(i, [])
        entry = c["entry"]
        routes = [t for t in map(trace, seg) if t and t.entry == entry]
        if c["result"] == "rejected":
            table["rejected"][f"{c['status']} at {c['step']}"] += 1
            if c["step"] in m["before_compute"] and not routes:
                continue
        if len(routes) != 1:
            what = "no routing trace" if not routes else f"{len(routes)} routing-trace lines"
            bad[f"{what} for the compute call (is the program running against the wrapper, "
                f"with MIOPEN_LOG_LEVEL=5?)"].append(f"case {i} {entry}")
            continue
        target, reason = routes[0].target, routes[0].reason
        if c["misaligned"]:
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
    if a.expect_forwarding and eligible and forwarded < min_forwarded * eligible:
        p.append(f"{run.name}: only {forwarded} of {eligible} cases with aligned buffers forwarded "
                 f"(< {min_forwarded:.0%}); forwarding is not really being tested")
    table["total"] = n
    table["forwarded_total"] = forwarded
    return table, p


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


class Pending:
    """A run in flight: its process, its output files, its place in the table."""

    def __init__(self, name, engine, env):
        self.name, self.engine, self.env = name, engine, env


def run_all(pending, args, base_env, db_prefix, work, a):
    """Runs every pending run (--jobs at a time); returns them as protocol Runs, in order."""
    done, active, queue = {}, [], list(pending)
    while queue or active:
        while queue and len(active) < max(1, a.jobs):
            r = queue.pop(0)
            db = db_prefix + r.name
            shutil.rmtree(db, ignore_errors=True)
            os.makedirs(db)
            env = dict(base_env, MIOPEN_USER_DB_PATH=db, **r.env)
            r.out = open(os.path.join(work, f"{r.name}.stdout"), "w")
            r.errf = open(os.path.join(work, f"{r.name}.stderr"), "w")
            r.started, r.timed_out = time.monotonic(), False
            r.proc = subprocess.Popen(args, env=env, stdout=r.out, stderr=r.errf)
            active.append(r)
        time.sleep(0.02)
        for r in list(active):
            if r.proc.poll() is None:
                if time.monotonic() - r.started > a.timeout:
                    r.timed_out = True
                    r.proc.kill()
                continue
            r.out.close()
            r.errf.close()
            active.remove(r)
            with open(r.out.name, errors="replace") as f:
                stdout = f.read()
            with open(r.errf.name, errors="replace") as f:
                stderr = f.read()
            run = Run(r.name, r.proc.returncode, stdout, stderr, timed_out=r.timed_out)
            run.engine = r.engine
            run.cases = run.by_case("case")
            done[r.name] = run
    return [done[r.name] for r in pending]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--manifest", required=True, help="test/consumers/differential/<group>.json")
    ap.add_argument("--binary", required=True, help="the manifest's program")
    ap.add_argument("--variant", help="one of the manifest's variants (default: its only one)")
    ap.add_argument("--cases", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"),
                    help="HIPDNN_BACKEND_LIBRARY_PATH for the enabled runs (default: the environment's)")
    ap.add_argument("--provider-dir", help="HIPDNN_PLUGIN_DIR holding the MIOpen provider engine")
    ap.add_argument("--engines", help="comma-separated enabled runs: reference, provider (default: the manifest's)")
    ap.add_argument("--expect-forwarding", action="store_true",
                    help="require every compute call -> hipDNN or declined, and the variant's min_forwarded of them")
    ap.add_argument("--no-engine-trace", action="store_true",
                    help="do not require the test bed's per-execute engine trace (for a real hipDNN)")
    ap.add_argument("--corrupt-case", type=int, help="passed to the program (negative test)")
    ap.add_argument("--ld-library-path", help="prepended to LD_LIBRARY_PATH in every run (negative test: "
                    "a library without the wrapper)")
    ap.add_argument("--tolerance", action="append", default=[], metavar="TYPE=VALUE",
                    help="replaces the manifest's tolerance of TYPE (negative test: a tolerance other than the "
                    "program's must fail the check)")
    ap.add_argument("--work-dir", help="user dbs and run logs (default: a temporary directory)")
    ap.add_argument("--jobs", type=int, default=min(3, os.cpu_count() or 1), help="runs at a time")
    ap.add_argument("--timeout", type=float, default=300, help="seconds per run before it is killed")
    a = ap.parse_args()
    m = load_manifest(a.manifest)
    for t in a.tolerance:
        kind, _, value = t.partition("=")
        m["tolerances"][kind] = float(value)
    variants = m["variants"]
    if a.variant is None and len(variants) != 1:
        ap.error(f"--variant is needed: one of {sorted(variants)}")
    variant_name = a.variant or next(iter(variants))
    if variant_name not in variants:
        ap.error(f"unknown variant {variant_name}: one of {sorted(variants)}")
    variant = variants[variant_name]
    program = os.path.basename(a.binary)
    if program != m["program"]:
        ap.error(f"--binary {program} is not the manifest's program {m['program']}")

    engines = (a.engines.split(",") if a.engines else m.get("engines", list(ENGINES)))
    engines = [e for e in engines if e]
    for e in engines:
        if e not in ENGINES:
            ap.error(f"unknown engine {e}")
    if "provider" in engines and not a.provider_dir:
        ap.error("--provider-dir is needed for the provider engine")
    if not a.backend_dir:
        ap.error("--backend-dir or HIPDNN_BACKEND_LIBRARY_PATH is needed")
    if not os.path.isabs(a.backend_dir):
        ap.error("--backend-dir must be absolute (the wrapper ignores a relative HIPDNN_BACKEND_LIBRARY_PATH)")

    work = os.path.abspath(a.work_dir or tempfile.mkdtemp(prefix=f"{program}-"))
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

    pending = [Pending("disabled", None, {"MIOPEN_HIPDNN_FORWARDING": "disabled"})]
    for e in engines:
        env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5",
               "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir,
               "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": ENGINES[e],
               "MINI_HIPDNN_TEST_TRACE_EXECUTE": "1"}
        if e == "provider":
            env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
        pending.append(Pending(f"enabled-{e}", e, env))

    args = [a.binary, *variant["args"], "--cases", str(a.cases), "--seed", str(a.seed)]
    if a.corrupt_case is not None:
        args += ["--corrupt-case", str(a.corrupt_case)]
    started = time.monotonic()
    try:
        runs = run_all(pending, args, base_env, db_prefix, work, a)
    except ProtocolError as e:
        return verdict("check_differential", [f"{program}: {e}"])
    elapsed = time.monotonic() - started

    base = runs[0]
    problems = [x for r in runs for x in check_run(r, m, a.cases)]
    allowed = collections.defaultdict(collections.Counter)
    problems += check_results(runs, base, m, allowed)
    tables = []
    for r in runs[1:]:
        table, p = check_routes(r, a, m, variant["min_forwarded"])
        tables.append((r, table))
        problems += p

    dis = collections.Counter(c["result"] for c in base.cases.values())
    title = f" {variant['title']}" if variant.get("title") else ""
    print(f"{program}{title}: {a.cases} cases, seed {a.seed}, {len(runs)} runs in {elapsed:.1f} s "
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
    print()
    rc = verdict("check_differential", problems)
    if rc == 0 and not a.work_dir:
        shutil.rmtree(work, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
