#!/usr/bin/env python3
"""Each fault class end to end through the public API (RFC §6.1).

Runs test/consumers/faults_consumer (--sequence: a group's call sequence,
test/groups/<group>/faults.{cpp,json}) with forwarding enabled and disabled under one fault (the hipDNN test bed's knobs, or a missing/broken backend) and
checks, per call: the status returned, miopenGetLastForwardedError's record,
miopenGetErrorString's prefix, the stderr diagnostic, and that nothing was
run on MIOpen Private instead (MIOpen's own call log at level 5 shows every
entry point it ran). The consumer's records (test/lib/protocol.py): a `call`
per call with its attribution, the `output` y[0], `null_argument`.
"""
import argparse
import glob
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import (DECLINED, FORWARDED_ERROR, PRIVATE, UNAVAILABLE, WRAPPER, checked, fail,  # noqa: E402
                          miopen_ran, plan_cache_counters, run as run_scrubbed, traces)

NOT_INITIALIZED, INTERNAL, UNKNOWN = 1, 5, 7


GROUPS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "groups")


class Sequence:
    """One call sequence of faults_consumer, from its group's faults.json
    (test/groups/<group>/faults.json; docs/testing.md, "A group's fault
    sequence"): its argument (none for the default one), its calls in order,
    the entry point of each call MIOpen's log names (for the retry check), the
    calls that trace hipDNN's no-engine decline, how many distinct problems
    the sequence builds (`problems`, 1 unless it says otherwise: each is one
    plan-cache miss and one remembered no-engine answer), and how many times
    a no-engine answer is then taken from memory."""

    def __init__(self, row):
        self.name = row["name"]
        self.arg = None if row.get("default") else self.name
        self.calls, self.entries = tuple(row["calls"]), row["entries"]
        self.no_engine_traces, self.remembered = row["no_engine_traces"], row["remembered"]
        self.problems = row.get("problems", 1)
        # `runs`: the calls that execute a plan (an execute fault fails them);
        # `stops`: the consumer makes no further call after a failed one;
        # `observed`: only a plan that builds makes MIOpen's solution hipDNN's
        # to run; `every_status`: each hipDNN execute status end to end.
        self.runs, self.stops = tuple(row["runs"]), row["stops"]
        self.observed, self.every_status = row.get("observed", False), row.get("every_status", False)

    @property
    def last(self):
        return self.calls[-1]


def load_sequences(groups_dir):
    """Every group's sequences by name."""
    out = {}
    for path in sorted(glob.glob(os.path.join(groups_dir, "*", "faults.json"))):
        with open(path) as f:
            for row in json.load(f)["sequences"]:
                out[row["name"]] = Sequence(row)
    return out


SEQUENCES = load_sequences(GROUPS_DIR)
# An expectation of a call the wrapper declines: MIOpen's success, no record.
DECLINED_CALL = (0, None, "")
SEQ = None  # set in main
OPT_OUT = {}  # --opt-out: MIOPEN_DISABLE_HIPDNN_FOR of every enabled run


def upto_failure(expect):
    """The calls a sequence makes: up to and including its first failure
    (where the sequence stops there: `stops`)."""
    if not SEQ.stops:
        return expect
    out = {}
    for call in SEQ.calls:
        out[call] = expect[call]
        if expect[call][0] != 0:
            break
    return out


class Output:
    """One run's records: the calls by label, y[0], what miopenGetLastForwardedError(NULL) returned."""

    def __init__(self, stdout):
        recs = records(stdout)
        self.text = stdout
        self.calls = {r["call"]: r for r in recs if r["kind"] == "call"}
        self.y0 = next((r["value"] for r in recs if r["kind"] == "output" and r["name"] == "y[0]"), None)
        self.null_argument = next((r["status"] for r in recs if r["kind"] == "null_argument"), None)

    @property
    def y_untouched(self):
        return self.y0 == 7


def run(consumer, env, level=None):
    if env.get("MIOPEN_HIPDNN_FORWARDING") == "enabled":
        env = dict(env, **OPT_OUT)
    cmd = [consumer] + ([SEQ.arg] if SEQ.arg else [])
    p = run_scrubbed(cmd, dict(env, MIOPEN_LOG_LEVEL=level), timeout=60)
    if p.returncode != 0:
        fail(f"consumer exited {p.returncode}: {p.stdout}\n{p.stderr}")
    out = Output(p.stdout)
    return out.calls, out, p.stderr.splitlines()


def text(c, key):
    """A string field of a call's record (null when the wrapper gave none)."""
    return c.get(key) or ""


def classes(a, empty_dir):
    """name -> (env, {call: (status, hipdnn status, message needle)}, diagnostic needle or None)."""
    lib = {"HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    calls = SEQ.calls
    unavailable = {c: (NOT_INITIALIZED, -1, "hipDNN backend unavailable") for c in calls}
    # The first call builds the plan; the calls of SEQ.runs execute it.
    execute_fails = {c: (UNKNOWN, 13, "execute failed") if c in SEQ.runs else (0, 0, "") for c in calls}
    if SEQ.observed:
        # Only a plan that builds makes MIOpen's solution hipDNN's to run.
        unavailable = {c: DECLINED_CALL for c in calls}
        execute_fails = {"Find": DECLINED_CALL, "forward": (UNKNOWN, 13, "execute failed")}
        return {name: (env, execute_fails if name == "execute fails" else unavailable, None)
                for name, (env, _e, _d) in plain_classes(a, lib, unavailable, execute_fails).items()}
    return {name: (env, upto_failure(expect), diag)
            for name, (env, expect, diag) in plain_classes(a, lib, unavailable, execute_fails).items()}


def plain_classes(a, lib, unavailable, execute_fails):
    """name -> (env, expectations, diagnostic) of the sequence."""
    calls = SEQ.calls
    return {
        "backend absent": ({"HIPDNN_BACKEND_LIBRARY_PATH": "/nonexistent-hipdnn"}, unavailable,
                           "/nonexistent-hipdnn/libhipdnn_backend.so"),
        "one pinned symbol missing": ({"HIPDNN_BACKEND_LIBRARY_PATH": a.missing_symbol_dir}, unavailable,
                                      "hipdnnBackendExecute"),
        "unverified version": (dict(lib, MINI_HIPDNN_TEST_VERSION_STRING="2.0.0.9f3e2a1"), unavailable,
                               "version 2.0.0.9f3e2a1"),
        "older revision (probe)": (dict(lib, MINI_HIPDNN_TEST_REVISION_SHAPE="old-numbering"), unavailable,
                                   "descriptor type 18"),
        "graph finalize fails": (dict(lib, MINI_HIPDNN_TEST_FAIL_FINALIZE="OPERATIONGRAPH"),
                                 {c: (INTERNAL, 9, "finalize graph failed") for c in calls}, None),
        "plan finalize fails": (dict(lib, MINI_HIPDNN_TEST_FAIL_FINALIZE="EXECUTION_PLAN"),
                                {c: (INTERNAL, 9, "finalize plan failed") for c in calls}, None),
        "execute fails": (dict(lib, MINI_HIPDNN_TEST_FAIL_EXECUTE="1"), execute_fails, None),
    }


def declined_classes(a, empty_dir):
    """name -> env: hipDNN cannot run the problem and nothing ran, so the
    call is declined and MIOpen Private answers it (both forms of "no
    engine" of the real backend)."""
    lib = {"HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    return {
        "no engine configuration": dict(lib, MINI_HIPDNN_TEST_ZERO_ENGINES="1"),
        "plugin directory without engines": dict(lib, HIPDNN_PLUGIN_DIR=empty_dir),
        "heuristic fails (engine order names no candidate)": dict(lib, HIPDNN_HEUR_FALLBACK_ENGINE_ORDER="NO_SUCH_ENGINE"),
    }


def check_enabled(a, name, env, expect, diag):
    calls, out, err = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="enabled"))
    failing = [c for c, (st, _h, _n) in expect.items() if st != 0]
    if a.corrupt and failing:
        # Negative control: expect the first failing call to succeed.
        expect = dict(expect, **{failing[0]: (0, 0, "")})
    made = [c for c in SEQ.calls if c in calls]
    if made != list(expect):
        fail(f"{name}: the sequence made calls {made}, expected {list(expect)}:\n{out.text}")
    if calls.get("before any call", {}).get("outcome") != 0:
        fail(f"{name}: before any call the record says nothing was forwarded: {calls.get('before any call')}")
    for call, (status, hipdnn, needle) in expect.items():
        c = calls.get(call)
        if c is None:
            fail(f"{name}: no record for {call}:\n{out.text}")
        declined = hipdnn is None
        outcome = 0 if declined else 1 if status == 0 else 2
        if (c["status"], c.get("outcome"), c.get("hipdnn")) != (status, outcome, 0 if declined else hipdnn):
            fail(f"{name}: {call}: expected status {status}, outcome {outcome}, hipDNN status {hipdnn}; got {c}")
        if needle not in text(c, "msg") or not (declined or text(c, "entry").startswith("miopen")):
            fail(f"{name}: {call}: the record's message must contain {needle!r}: {c}")
        prefixed = text(c, "errstr").startswith(FORWARDED_ERROR)
        if prefixed != (status != 0):
            fail(f"{name}: {call}: miopenGetErrorString prefix is {prefixed} for status {status}: {c.get('errstr')!r}")
    last = calls[list(expect)[-1]]
    if calls["after a non-forwarded call"].get("outcome") != last.get("outcome"):
        fail(f"{name}: a call outside the forwarding set changed the record")
    if last["status"] != 0 and not out.y_untouched:
        fail(f"{name}: the failed call wrote y, so it ran somewhere: {out.text}")
    if out.null_argument != 3:
        fail(f"{name}: miopenGetLastForwardedError(NULL) must return miopenStatusBadParm")
    # The diagnostic: one line for an unavailable backend, else one error line per failed call.
    if diag is not None:
        lines = [l for l in err if UNAVAILABLE in l]
        if len(lines) != 1 or diag not in lines[0]:
            fail(f"{name}: expected one diagnostic naming {diag!r}: {err}")
    else:
        failed = sum(1 for (s, _h, _n) in expect.values() if s != 0)
        lines = [l for l in err if l.startswith(f"{WRAPPER} error: miopen")]
        if len(lines) != failed:
            fail(f"{name}: expected {failed} error line(s) on stderr at MIOpen's default level: {err}")
    # Nothing retried on MIOpen Private: its call log (level 5) shows every
    # entry point it ran, as the disabled run's log must show these.
    _, _, err5 = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="enabled"), level="5")
    _, _, disabled5 = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="disabled"), level="5")
    for call, (status, _h, _n) in expect.items():
        ep = SEQ.entries.get(call)
        if ep and not miopen_ran(disabled5, ep):
            fail(f"{name}: the disabled run's log does not show {ep} (a retry would go unseen)")
        if status != 0 and ep and miopen_ran(err5, ep):
            fail(f"{name}: {ep} ran on MIOpen Private after the forwarded call failed")
    print(f"{name}: " + ", ".join(f"{c} -> {calls[c]['status']} (hipDNN {calls[c]['hipdnn']})" for c in expect))


def check_declined(a, name, env):
    calls, out, err = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="enabled", MIOPEN_HIPDNN_LOG_ROUTING="1"))
    for call in SEQ.calls:
        c = calls.get(call)
        if c is None or (c["status"], c.get("outcome")) != (0, 0) or text(c, "errstr").startswith("["):
            fail(f"{name}: {call}: declined, so MIOpen's success and no forwarded record: {c}")
    if out.y_untouched:
        fail(f"{name}: the declined {SEQ.last} call must have run on MIOpen Private: {out.text}")
    # A fusion plan's later calls name the compile's decline inside theirs.
    declines = [t.reason for t in traces(err) if t.target == PRIVATE
                and t.reason.startswith(DECLINED) and "hipDNN has no engine for this problem" in t.reason]
    if len(declines) != SEQ.no_engine_traces:
        fail(f"{name}: {SEQ.no_engine_traces} call(s) must trace the no-engine decline: {err}")
    if any(l.startswith(f"{WRAPPER} error:") for l in err):
        fail(f"{name}: a decline is not an error: {err}")
    _, _, err5 = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="enabled"), level="5")
    for ep in SEQ.entries.values():
        if not miopen_ran(err5, ep):
            fail(f"{name}: {ep} must have run on MIOpen Private")
    # The answer is remembered per problem: one graph built each, later calls answered from memory.
    _, _, errs = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="enabled", MIOPEN_HIPDNN_EXIT_SUMMARY="1"))
    want = (f"problems hipDNN has no engine for: {SEQ.problems} remembered, "
            f"answered from memory {SEQ.remembered} time(s)")
    if not any(want in l for l in errs) or (plan_cache_counters(errs) or (-1, -1))[:2] != (0, SEQ.problems):
        fail(f"{name}: the exit summary must show {SEQ.problems} build(s) and {SEQ.remembered} remembered "
             f"answer(s): {errs[-6:]}")
    why = declines[0][len(DECLINED):][:80] if declines else "MIOpen's own search and solution"
    print(f"{name}: declined to MIOpen Private ({why}...), remembered")


def check_disabled(a, name, env):
    calls, out, err = run(a.consumer, dict(env, MIOPEN_HIPDNN_FORWARDING="disabled"))
    if any(c not in calls for c in SEQ.calls):
        fail(f"{name}, forwarding disabled: every call of the sequence is made on MIOpen: {out.text}")
    bad = {c: v for c, v in calls.items() if v["status"] != 0 or v.get("outcome") != 0 or text(v, "errstr").startswith("[")}
    if bad or err or out.y_untouched:
        fail(f"{name}, forwarding disabled: must be invisible (all succeed on MIOpen, no record): {bad} {err}")


def status_table():
    """The documented hipDNN -> MIOpen table (docs/forwarding.md; a Rust test ties it to the code)."""
    names = {"miopenStatusSuccess": 0, "miopenStatusNotInitialized": 1, "miopenStatusInvalidValue": 2,
             "miopenStatusBadParm": 3, "miopenStatusAllocFailed": 4, "miopenStatusInternalError": 5,
             "miopenStatusNotImplemented": 6, "miopenStatusUnknownError": 7, "miopenStatusVersionMismatch": 10}
    doc = open(os.path.join(os.path.dirname(__file__), "../../docs/forwarding.md")).read()
    rows = re.findall(r"^\| (\d+) `HIPDNN_STATUS_\w+` \| `(miopenStatus\w+)` \|", doc, re.M)
    table = {int(h): names[m] for h, m in rows}
    if sorted(table) != list(range(16)):
        fail(f"docs/forwarding.md: the translation table must have one row per hipDNN status 0-15: {sorted(table)}")
    return table


def every_status(a):
    """Each hipDNN status a forwarded execute can fail with, end to end."""
    lib = {"HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir, "MIOPEN_HIPDNN_FORWARDING": "enabled"}
    for hipdnn, miopen in sorted(status_table().items()):
        if hipdnn == 0:
            continue
        calls, _, _ = run(a.consumer, dict(lib, MINI_HIPDNN_TEST_FAIL_EXECUTE=f"status:{hipdnn}"))
        f = calls[SEQ.last]
        if (f["status"], f.get("outcome"), f.get("hipdnn")) != (miopen, 2, hipdnn) or not text(f, "errstr").startswith(FORWARDED_ERROR):
            fail(f"hipDNN status {hipdnn}: expected miopenStatus {miopen}, outcome failed, prefix; got {f}")
    print("every hipDNN status 1-15 from execute: translated as documented, attributed, prefixed")


def main():
    global SEQ
    ap = argparse.ArgumentParser()
    for opt in ("consumer", "backend-dir", "missing-symbol-dir"):
        ap.add_argument(f"--{opt}", required=True)
    default = next(n for n, q in SEQUENCES.items() if q.arg is None)
    ap.add_argument("--sequence", choices=sorted(SEQUENCES), default=default,
                    help=f"faults_consumer's call sequence, one of test/groups/*/faults.json (default: {default})")
    ap.add_argument("--corrupt", action="store_true",
                    help="negative control: expect each class's first failing call to succeed")
    ap.add_argument("--opt-out", help="negative control: MIOPEN_DISABLE_HIPDNN_FOR for every enabled run")
    a = ap.parse_args()
    SEQ = SEQUENCES[a.sequence]
    if a.opt_out:
        OPT_OUT["MIOPEN_DISABLE_HIPDNN_FOR"] = a.opt_out
    return checked("check_faults", lambda: every_class(a))


def every_class(a):
    with tempfile.TemporaryDirectory() as empty:
        for name, (env, expect, diag) in classes(a, empty).items():
            check_enabled(a, name, env, expect, diag)
            check_disabled(a, name, env)
        for name, env in declined_classes(a, empty).items():
            check_declined(a, name, env)
            check_disabled(a, name, env)
    if SEQ.every_status:
        every_status(a)
    print(f"{a.sequence}: every fault class: status, record, prefix and diagnostic as documented; invisible when disabled")


if __name__ == "__main__":
    sys.exit(main())
