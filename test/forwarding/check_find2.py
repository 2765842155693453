#!/usr/bin/env python3
"""Find 2.0 forwarding, call by call (test/consumers/find2_consumer.cpp).

  check_find2.py sequence --consumer C      the routing of every Find 2.0
      entry point, forwarding enabled on both engines: problem and option
      calls observed, the search forwarded (plan cache miss, then hit), the
      hipDNN solution's getters, save, load and runs answered by hipDNN (a
      tuned search's too: global.benchmarking), the
      searches MIOpen keeps declined with their cause, the runs of their
      solutions forwarded (or MIOpen's, for a transposed convolution; a null
      one, named as null, where MIOpen found none for it); every
      status equal to the disabled run's, every run's result `ok`.
  check_find2.py optout --consumer C --value V   with MIOPEN_DISABLE_HIPDNN_FOR=V
      every Find 2.0 call is `opted out` and the statuses are the disabled run's.
  check_find2.py tuning-db --consumer C [--corrupt]   searches the wrapper
      answers leave an empty MIOpen user db empty (forwarding enabled, the
      reference engine: the MIOpen provider engine is MIOpen Private itself,
      whose own Find writes its db, docs/forwarding.md "Tuning databases"),
      where the same searches with forwarding disabled write
      MIOpen's find-db there (so the check can see a write); --corrupt runs
      the enabled check on the disabled run's db (must fail).
  check_find2.py driver-line --consumer C [--corrupt]   MIOPEN_ENABLE_LOGGING_CMD:
      every call logs the MIOpenDriver lines the disabled run logs, byte for
      byte, except that a hipDNN solution's run says `-S 0` (the solver id it
      reports) where MIOpen's names its solver; --corrupt drops one enabled
      line (must fail).
  check_find2.py faults --consumer C [--corrupt]   failure attribution (RFC
      §6.1) of a search the wrapper answers: backend absent -> the search
      returns miopenStatusNotInitialized with the loader's diagnostic; the
      plan's execute failing -> miopenStatusUnknownError with hipDNN's step in
      the error line; never retried on MIOpen; with forwarding disabled the
      same environment changes nothing. --corrupt expects success instead.
  check_find2.py parity --consumer C [--corrupt | --corrupt-null]  invalid
      calls: the same statuses disabled and enabled, the calls on the hipDNN
      solution answered by the wrapper (`refused with <status>: ...`), a
      call on a null solution, problem or blob declined naming the null
      (`<what> is null (MIOpen decides)`); --corrupt changes one enabled
      status, --corrupt-null gives the null calls the text they had before
      (`MIOpen's own solution, ...`) (negative controls: must fail).
"""
import argparse
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import Run  # noqa: E402
from wrapper_test import COMMAND, DECLINED, HIPDNN, PRIVATE, checked, environment, fail, trace  # noqa: E402

ENGINES = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}
FAMILY = "conv_find2"


def run(cmd, env):
    return Run.of_command(os.path.basename(cmd[0]), cmd, environment(env), timeout=300)


def segments(p):
    """[(step, entry, [its stderr lines])], one per call record, in call order."""
    return [(r["step"], r["entry"], p.segments.get(r["case"], [])) for r in p.of("call")]


def calls(p):
    """[(step, entry, record, [trace of the entry in its segment])]."""
    recs = p.of("call")
    if len(p.segments) != len(recs) or any(r["case"] not in p.segments for r in recs):
        fail(f"{len(p.segments)} markers but {len(recs)} call records")
    return [(r["step"], r["entry"], r, [t for t in map(trace, p.segments[r["case"]]) if t and t.entry == r["entry"]])
            for r in recs]


def enabled_env(a, engine, extra=None):
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
           "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir, "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": ENGINES[engine]}
    if engine == "provider":
        env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
    env.update(extra or {})
    return env


def one_route(problems, name, step, entry, traces):
    if len(traces) != 1:
        problems.append(f"{name}: {step} {entry}: {len(traces)} routing-trace lines")
        return None
    return traces[0]


def expect_sequence(step, entry, t):
    """What the trace of one call of the sequence must say, or None if it does."""
    observed = entry.startswith(("miopenCreate", "miopenSetProblem", "miopenSetFindOption", "miopenDestroyProblem",
                                 "miopenDestroyFindOptions"))
    if observed:
        ok = t.target == PRIVATE and t.reason.startswith("observed: ")
        return None if ok else "-> MIOpen Private (observed: ...)"
    if step in ("searched", "searched-again", "tuning"):
        # A tuned search is hipDNN's too, with global.benchmarking (its own plan key).
        if t.target != HIPDNN:
            return "-> hipDNN"
        if entry == "miopenFindSolutions" and step == "tuning":
            return None
        if entry == "miopenFindSolutions":
            want = "plan cache miss" if step == "searched" else "plan cache hit"
            return None if want in t.reason else f"-> hipDNN (... {want})"
        return None
    causes = {"no-buffers": "no preallocated x, w and y buffers",
              "transpose": "miopenTranspose mode"}
    if entry == "miopenFindSolutions":
        ok = t.target == PRIVATE and t.reason.startswith(DECLINED + causes[step])
        return None if ok else f"-> MIOpen Private (declined: {causes[step]}...)"
    if step == "transpose-none":
        # MIOpen's search found no solution: the calls take a null one, named so.
        ok = t.target == PRIVATE and t.reason == DECLINED + "solution is null (MIOpen decides)"
        return None if ok else "-> MIOpen Private (declined: solution is null (MIOpen decides))"
    if entry in ("miopenRunSolution", "miopenGetSolutionWorkspaceSize"):
        if step == "transpose":
            ok = t.target == PRIVATE and "MIOpen's own solution" in t.reason
            return None if ok else "-> MIOpen Private (declined: MIOpen's own solution...)"
        return None if t.target == HIPDNN else "-> hipDNN (an observed MIOpen solution)"
    ok = t.target == PRIVATE and t.reason.startswith(DECLINED + "MIOpen's own solution")
    return None if ok else "-> MIOpen Private (declined: MIOpen's own solution)"


def commands(p):
    """The driver lines of each call, in call order."""
    return [(s, e, [l for l in lines if l.startswith(COMMAND)]) for s, e, lines in segments(p)]


def driver_line(a):
    env = {"MIOPEN_ENABLE_LOGGING_CMD": "1"}
    base = commands(run([a.consumer, "sequence"], dict(env, MIOPEN_HIPDNN_FORWARDING="disabled")))
    got = commands(run([a.consumer, "sequence"], enabled_env(a, "reference", env)))
    if a.corrupt:
        next(c for c in got if c[2])[2].pop()
    problems = []
    if not any(c[2] for c in base):
        problems.append("disabled: no driver line logged (the check cannot see one)")
    for (step, entry, want), (_, _, lines) in zip(base, got):
        if entry == "miopenRunSolution" and (step.startswith("searched") or step == "tuning"):
            want = [re.sub(r" -S \d+$", " -S 0", w) for w in want]
        if lines != want:
            problems.append(f"enabled-reference: {step} {entry}: driver lines {lines}, disabled {want}")
    if len(base) != len(got):
        problems.append(f"enabled-reference: {len(got)} calls, disabled {len(base)}")
    print(f"driver lines: {sum(len(c[2]) for c in base)} in the disabled run, {sum(len(c[2]) for c in got)} enabled")
    return problems


NOT_INITIALIZED, UNKNOWN = 1, 7


def first_search(p):
    return next((r["status"] for r in p.of("call") if (r["step"], r["entry"]) == ("searched", "miopenFindSolutions")),
                None)


def mismatched(p):
    return any(r.get("result") == "mismatch" for r in p.of("call"))


def faults(a):
    problems = []
    cases = {
        "backend absent": ({"HIPDNN_BACKEND_LIBRARY_PATH": "/nonexistent-hipdnn"}, NOT_INITIALIZED,
                           "/nonexistent-hipdnn/libhipdnn_backend.so"),
        "execute fails": ({"MINI_HIPDNN_TEST_FAIL_EXECUTE": "1"}, UNKNOWN,
                          "miopenFindSolutions -> error miopenStatusUnknownError: hipDNN execute failed"),
    }
    for name, (extra, status, needle) in cases.items():
        want = 0 if a.corrupt else status
        env = enabled_env(a, "reference")
        env.pop("MIOPEN_HIPDNN_LOG_ROUTING")
        env.update(extra)
        p = run([a.consumer, "searched"], env)
        got = first_search(p)
        if got != want:
            problems.append(f"{name}: the search returned status {got}, expected {want}")
        if needle not in p.stderr:
            problems.append(f"{name}: stderr does not say {needle!r}: {p.stderr[-300:]}")
        off = run([a.consumer, "searched"], dict(extra, MIOPEN_HIPDNN_FORWARDING="disabled"))
        if first_search(off) != 0 or "hipDNN" in off.stderr:
            problems.append(f"{name}: with forwarding disabled the fault is visible: {off.stderr[-300:]}")
        print(f"{name}: search status {got}")
    return problems


def db_files(d):
    return sorted(os.path.relpath(os.path.join(r, f), d) for r, _, fs in os.walk(d) for f in fs)


def tuning_db(a):
    problems = []
    with tempfile.TemporaryDirectory(prefix="find2-db-") as work:
        dbs = {}
        for name, env in [("disabled", {"MIOPEN_HIPDNN_FORWARDING": "disabled"}),
                          ("enabled-reference", enabled_env(a, "reference"))]:
            db = os.path.join(work, name)
            os.makedirs(db)
            env = dict(env, MIOPEN_USER_DB_PATH=db, MIOPEN_CUSTOM_CACHE_DIR=os.path.join(db, "cache"))
            p = run([a.consumer, "searched"], env)
            if p.returncode != 0 or mismatched(p):
                problems.append(f"{name}: exit {p.returncode} or a mismatch: {p.stderr[-300:]}")
            dbs[name] = db_files(db)
        if not dbs["disabled"]:
            problems.append("disabled: MIOpen's search wrote nothing to the user db (the check cannot see a write)")
        for name, files in dbs.items():
            if name == "disabled":
                continue
            seen = dbs["disabled"] if a.corrupt else files
            if seen:
                problems.append(f"{name}: the forwarded searches wrote MIOpen's user db: {seen}")
            print(f"{name}: user db after the run: {files or 'empty'}")
        print(f"disabled: user db after the run: {dbs['disabled']}")
        # A db MIOpen filled stays byte-identical through a forwarded run.
        db = os.path.join(work, "disabled")
        before = {f: open(os.path.join(db, f), "rb").read() for f in db_files(db)}
        run([a.consumer, "searched"], dict(enabled_env(a, "reference"), MIOPEN_USER_DB_PATH=db,
                                           MIOPEN_CUSTOM_CACHE_DIR=os.path.join(db, "cache")))
        after = {f: open(os.path.join(db, f), "rb").read() for f in db_files(db)}
        if after != before:
            problems.append("enabled-reference: a forwarded run changed the user db MIOpen had filled")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=("sequence", "optout", "parity", "tuning-db", "driver-line", "faults"))
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"))
    ap.add_argument("--provider-dir", required=True)
    ap.add_argument("--value", help="MIOPEN_DISABLE_HIPDNN_FOR (optout)")
    ap.add_argument("--corrupt", action="store_true")
    ap.add_argument("--corrupt-null", action="store_true")
    a = ap.parse_args()
    checks = {"tuning-db": tuning_db, "driver-line": driver_line, "faults": faults}
    return checked("check_find2", lambda: checks.get(a.check, calls_by_call)(a))


NULL_NAMED = re.compile(r"^(solution|problem|data) is null \(MIOpen decides\)$")


def nulls_named(name, got, corrupt):
    """Each call of step `null` (a null solution, problem or blob) is declined
    with a cause that names the null argument."""
    problems, seen = [], 0
    for step, entry, _, traces in got:
        if step != "null":
            continue
        seen += 1
        for t in traces:
            reason = DECLINED + "MIOpen's own solution, of no problem the wrapper saw hipDNN run" if corrupt else t.reason
            cause = reason[len(DECLINED):] if reason.startswith(DECLINED) else None
            if t.target != PRIVATE or cause is None or not NULL_NAMED.match(cause):
                problems.append(f"{name}: {entry} on a null argument: -> {t.target} ({reason}); expected "
                                f"-> {PRIVATE} ({DECLINED}<solution|problem|data> is null (MIOpen decides))")
    if seen < 5:
        problems.append(f"{name}: only {seen} calls on a null argument (expected 5)")
    return problems


def calls_by_call(a):
    """sequence, optout, parity: every call's status against the disabled run's, and its routing."""
    mode = "parity" if a.check == "parity" else "sequence"
    base = run([a.consumer, mode], {"MIOPEN_HIPDNN_FORWARDING": "disabled"})
    if base.returncode != 0:
        fail(f"disabled run exit {base.returncode}: {base.stderr[-500:]}")
    want = [o for (_, _, o, _) in calls(base)]
    problems = []
    engines = ["reference"] if a.check == "optout" else list(ENGINES)
    for engine in engines:
        extra = {"MIOPEN_DISABLE_HIPDNN_FOR": a.value} if a.check == "optout" else None
        name = f"enabled-{engine}"
        p = run([a.consumer, mode], enabled_env(a, engine, extra))
        if p.returncode != 0:
            problems.append(f"{name}: exit {p.returncode}: {p.stderr[-500:]}")
            continue
        got = calls(p)
        lines = [o for (_, _, o, _) in got]
        if a.corrupt and lines:
            lines[-2] = dict(lines[-2], status=99)
        for i, (w, g) in enumerate(zip(want, lines)):
            if w != g:
                problems.append(f"{name}: call {i} differs from the disabled run: {g!r}, disabled {w!r}")
        if len(want) != len(lines):
            problems.append(f"{name}: {len(lines)} calls, disabled {len(want)}")
        for step, entry, out, traces in got:
            t = one_route(problems, name, step, entry, traces)
            if t is None:
                continue
            if out.get("result") == "mismatch":
                problems.append(f"{name}: {step} {entry}: result mismatch")
            if t.family != FAMILY:
                problems.append(f"{name}: {step} {entry}: family [{t.family}], expected [{FAMILY}]")
            if a.check == "optout":
                if not (t.target == PRIVATE and t.reason.startswith("opted out: ")):
                    problems.append(f"{name}: {step} {entry}: not opted out: -> {t.target} ({t.reason})")
            elif a.check == "sequence":
                why = expect_sequence(step, entry, t)
                if why:
                    problems.append(f"{name}: {step} {entry}: -> {t.target} ({t.reason}); expected {why}")
        if a.check == "parity":
            problems += nulls_named(name, got, a.corrupt_null)
            rejected = [t for (s, e, _, ts) in got if s == "invalid" for t in ts
                        if t.target == HIPDNN and t.reason.startswith("forwarded; refused with ")]
            if len(rejected) < 8:
                problems.append(f"{name}: only {len(rejected)} invalid calls on the hipDNN solution answered "
                                f"by the wrapper (expected >= 8)")
        print(f"{name}: {len(got)} calls checked")
    return problems


if __name__ == "__main__":
    sys.exit(main())
