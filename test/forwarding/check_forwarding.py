#!/usr/bin/env python3
"""Forwarding behaviour seen from a consumer of the installed libMIOpen.so.

Each subcommand is one CTest. It runs test/consumers/forwarding_consumer
under environments that select the mode, the hipDNN backend and its engine,
and checks the consumer's records (test/lib/protocol.py: a `call` per call,
`property`, `find_result`) and the wrapper's routing trace
(MIOPEN_LOG_LEVEL=5) on stderr. Every check names what it expected, so
a failure says what broke.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import (EXIT_SUMMARY, LOADED, MIOPEN_LOG, SUMMARY_DISABLED, SUMMARY_FORWARDED,  # noqa: E402
                          SUMMARY_NOT_IN_SET, TRACE, UNAVAILABLE, WRAPPER, checked, fail, miopen_ran,
                          plan_cache_counters, run, summary_rows, traces)


class Output:
    """A run's records: its calls as (label, status, sum or None), the
    properties it reports, its Find result."""

    def __init__(self, stdout):
        self.text = stdout
        recs = records(stdout)
        self.calls = [(r["call"], r["status"], r.get("sum")) for r in recs if r["kind"] == "call"]
        self.properties = {r["name"]: r["holds"] for r in recs if r["kind"] == "property"}
        self.find_result = next((r for r in recs if r["kind"] == "find_result"), None)

    def holds(self, name):
        return self.properties.get(name) is True

    def __str__(self):
        return self.text


# A scenario that needs a freed object's address handed out again (a new
# handle or descriptor where the old one was) runs with ASan's quarantine off:
# the quarantine exists to keep freed chunks from being reused, so under
# scripts/sanitize.sh the scenario would otherwise prove nothing. Only these
# processes give up use-after-free detection of quarantined chunks; every
# other check keeps it. Without ASan the variable is read by nobody.
def address_reuse_env():
    base = os.environ.get("ASAN_OPTIONS", "")
    return {"ASAN_OPTIONS": ":".join(filter(None, [base, "quarantine_size_mb=0", "thread_local_quarantine_size_kb=0"]))}


class Ctx:
    def __init__(self, a):
        self.consumer = a.consumer
        self.backend_dir = a.backend_dir
        self.provider_dir = a.provider_dir
        self.fake_dir = a.missing_symbol_dir
        self.install_lib = a.install_lib

    def run(self, args, env=None, engine="reference", backend=True, lib_dir=None):
        e = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5"}
        if backend:
            e["HIPDNN_BACKEND_LIBRARY_PATH"] = self.backend_dir
        if engine == "provider":
            e["HIPDNN_PLUGIN_DIR"] = self.provider_dir
        if lib_dir:
            e["LD_LIBRARY_PATH"] = lib_dir
        e.update(env or {})
        p = run([self.consumer] + args, e, timeout=120)
        if p.returncode != 0:
            fail(f"consumer {args} exited {p.returncode}\nstdout:\n{p.stdout}\nstderr:\n{p.stderr[-4000:]}")
        return Output(p.stdout), p.stderr.splitlines()


def expect_count(lines, needle, n, what):
    got = sum(1 for l in lines if needle in l)
    if got != n:
        fail(f"{what}: expected {n} line(s) containing {needle!r}, got {got}")


def calls(out):
    """The run's calls: (label, status, sum or None)."""
    return out.calls


def conv_routes(err, entry):
    return [(t, r) for (ep, _fam, t, r) in traces(err) if ep == entry]


# --- call sequences: the enabled run behaves like the disabled one -----------
def sequences(c, engine):
    d_out, _ = c.run(["sequences"], env={"MIOPEN_HIPDNN_FORWARDING": "disabled"}, engine=engine)
    e_out, e_err = c.run(["sequences"], engine=engine)
    d, e = calls(d_out), calls(e_out)
    if [x[0] for x in d] != [x[0] for x in e] or len(d) < 15:
        fail(f"the two runs made different calls:\n{d_out}\n{e_out}")
    declined = {"2-D forward beta=0.5", "3-D forward beta=0.5", "Immediate unknown id"}
    for (label, ds, dsum), (_, es, esum) in zip(d, e):
        if ds != es:
            fail(f"{label}: status {es} with forwarding vs {ds} without")
        if dsum is not None:
            exact = label in declined
            tol = 0.0 if exact else 1e-5 * max(1.0, abs(dsum))
            if abs(dsum - esum) > tol:
                fail(f"{label}: result {esum!r} with forwarding vs {dsum!r} without (tolerance {tol})")
    for flag in ("2-D Find fits workspace", "3-D Find fits workspace", "solution workspace covers the listed size"):
        if not e_out.holds(flag):
            fail(f"enabled run: expected {flag!r}")
    routes = traces(e_err)
    want = [
        ("miopenFindConvolutionForwardAlgorithm", "hipDNN", "forwarded", 2),
        ("miopenConvolutionForward", "hipDNN", "forwarded", 2),
        ("miopenConvolutionForward", "MIOpen Private", "declined: beta=0.5 (hipDNN has no output blending)", 2),
        ("miopenConvolutionForwardGetWorkSpaceSize", "hipDNN", "forwarded", 2),
        ("miopenConvolutionForwardGetSolution", "hipDNN", "forwarded", 1),
        ("miopenConvolutionForwardCompileSolution", "hipDNN", "forwarded", 1),
        ("miopenConvolutionForwardImmediate", "hipDNN", "forwarded", 1),
        ("miopenConvolutionForwardImmediate", "MIOpen Private", "declined: solution id 987654 is not one MIOpen accepts", 1),
        ("miopenConvolutionForward", "MIOpen Private", "declined: a data pointer is null", 1),
        ("miopenConvolutionForward", "MIOpen Private", "declined: xDesc is not readable", 1),
        ("miopenConvolutionForward", "MIOpen Private", "declined: y's", 1),
        ("miopenConvolutionForwardGetWorkSpaceSize", "MIOpen Private", "declined: workSpaceSize is null", 1),
        ("miopenConvolutionForwardGetWorkSpaceSize", "MIOpen Private", "declined: MIOpen rejects the problem (miopenStatusBadParm", 1),
    ]
    for ep, target, reason, n in want:
        got = sum(1 for (p, _f, t, r) in routes if p == ep and t == target and r.startswith(reason))
        if got != n:
            fail(f"{engine}: expected {n} trace line(s) '{ep} -> {target} ({reason}...)', got {got}:\n"
                 + "\n".join(f"  {p} -> {t} ({r})" for (p, _f, t, r) in routes if p == ep))
    print(f"{engine} engine: {len(d)} calls, same statuses and results as without forwarding")


# --- plan cache --------------------------------------------------------------
def cache_repeat(c):
    _, err = c.run(["repeat", "5"])
    r = conv_routes(err, "miopenConvolutionForward")
    notes = [reason for (_t, reason) in r]
    if len(r) != 5 or notes.count("forwarded; plan cache hit") != 5:
        fail(f"5 repeats after GetWorkSpaceSize built the plan: expected 5 hits, got {notes}")
    ws = conv_routes(err, "miopenConvolutionForwardGetWorkSpaceSize")
    if len(ws) != 1 or not ws[0][1].endswith("plan cache miss"):
        fail(f"the first call on the problem builds the plan: {ws}")
    print("repeat: 1 miss, then 5 hits")


def cache_evict(c):
    def last_note(size):
        _, err = c.run(["problems", "3"], env={"MIOPEN_HIPDNN_PLAN_CACHE_SIZE": size})
        return [r for (_t, r) in conv_routes(err, "miopenConvolutionForward")]
    bounded = last_note("2")
    unbounded = last_note(None)
    if bounded[:3] != ["forwarded; plan cache miss"] * 3 or bounded[3] != "forwarded; plan cache miss":
        fail(f"capacity 2, problems 0 1 2 0: the first must have been evicted: {bounded}")
    if unbounded[3] != "forwarded; plan cache hit":
        fail(f"default capacity, problems 0 1 2 0: the first must still be cached: {unbounded}")
    print("eviction at the bound: problem 0 rebuilt with capacity 2, reused with the default")


def cache_release(c):
    out, err = c.run(["release"], env=address_reuse_env())
    if not out.holds("handle address reused"):
        fail(f"the scenario needs the second handle at the first one's address (else it tests nothing): {out}")
    notes = [r for (_t, r) in conv_routes(err, "miopenConvolutionForward")]
    if notes != ["forwarded; plan cache miss", "forwarded; plan cache hit"] * 2:
        fail(f"a new handle after miopenDestroy must rebuild (even at a reused address): {notes}")
    expect_count(err, "miopenDestroy: released 1 cached plan(s) and the hipDNN handle", 2, "release")
    print("miopenDestroy releases the handle's plans and hipDNN handle")


def cache_stream(c):
    _, err = c.run(["stream"], env={"MINI_HIPDNN_TEST_TRACE_EXECUTE": "1"})
    execs = [l for l in err if l.startswith("mini-hipdnn: execute on engine")]
    if len(execs) != 2 or "0x5eed00" in execs[0] or not execs[1].endswith("stream 0x5eed00"):
        fail(f"the second call must run on the stream set by miopenSetStream: {execs}")
    notes = [r for (_t, r) in conv_routes(err, "miopenConvolutionForward")]
    if notes != ["forwarded; plan cache miss", "forwarded; plan cache hit"]:
        fail(f"the plan is reused on the new stream: {notes}")
    print("miopenSetStream: the cached plan runs on the new stream")


def cache_stream_back(c):
    _, err = c.run(["streamback"], env={"MINI_HIPDNN_TEST_TRACE_EXECUTE": "1"})
    streams = [l.rsplit("stream ", 1)[-1] for l in err if l.startswith("mini-hipdnn: execute on engine")]
    if len(streams) != 3 or streams[1] != "0x5eed00" or streams[2] != streams[0]:
        fail(f"after another thread set the stream away and back, this thread's call must run on the original: {streams}")
    notes = [r for (_t, r) in conv_routes(err, "miopenConvolutionForward")]
    if notes != ["forwarded; plan cache miss", "forwarded; plan cache hit", "forwarded; plan cache hit"]:
        fail(f"the plan is reused on every stream: {notes}")
    print("miopenSetStream away and back on another thread: the next call runs on the original stream")


# --- loader ------------------------------------------------------------------
def unavailable(c, env, needles, what, backend=False):
    out, err = c.run(["find"], env=env, backend=backend)
    expect_count(err, UNAVAILABLE, 1, what)
    diag = next(l for l in err if UNAVAILABLE in l)
    for n in list(needles) + ["miopenStatusNotInitialized", "MIOPEN_DISABLE_HIPDNN_FOR=*"]:
        if n not in diag:
            fail(f"{what}: the diagnostic does not mention {n!r}: {diag}")
    st = {label: s for (label, s, _x) in calls(out)}
    if st.get("GetWorkSpaceSize") != 1 or st.get("Find") != 1 or st.get("forward") != 1:
        fail(f"{what}: calls that would forward return miopenStatusNotInitialized (1): {st}")
    # The rollback switch brings everything back: MIOpen Private, no diagnostic.
    out, err = c.run(["find"], env=dict(env, MIOPEN_DISABLE_HIPDNN_FOR="*"), backend=backend)
    if any(UNAVAILABLE in l for l in err) or any(s != 0 for (_l, s, _x) in calls(out)):
        fail(f"{what}, MIOPEN_DISABLE_HIPDNN_FOR=*: every call succeeds on MIOpen, no diagnostic: {out} {err[-3:]}")
    # The same environment with forwarding disabled never touches hipDNN.
    out, err = c.run(["find"], env=dict(env, MIOPEN_HIPDNN_FORWARDING="disabled", MIOPEN_LOG_LEVEL=None),
                     backend=backend)
    if err:
        fail(f"{what}, forwarding disabled: expected silent stderr, got {err}")
    if any(s != 0 for (_l, s, _x) in calls(out)):
        fail(f"{what}, forwarding disabled: every call succeeds: {out}")
    print(f"{what}: one diagnostic, miopenStatusNotInitialized; MIOPEN_DISABLE_HIPDNN_FOR=* and disabled run on MIOpen")


def forwards_like_disabled(c, env, what):
    """The "find" scenario forwards every call and gets the disabled run's results."""
    out, err = c.run(["find"], env=env)
    d_out, _ = c.run(["find"], env=dict(env, MIOPEN_HIPDNN_FORWARDING="disabled"))
    e, d = calls(out), calls(d_out)
    if [(l, s) for (l, s, _x) in e] != [(l, s) for (l, s, _x) in d] or any(s != 0 for (_l, s, _x) in e):
        fail(f"{what}: every call succeeds as without forwarding: {e} vs {d}")
    for (label, _s, es), (_l, _s2, ds) in zip(e, d):
        if ds is not None and abs(es - ds) > 1e-5 * max(1.0, abs(ds)):
            fail(f"{what}: {label}: result {es} forwarded vs {ds} on MIOpen")
    for ep in ("miopenFindConvolutionForwardAlgorithm", "miopenConvolutionForward"):
        if [t for (t, _r) in conv_routes(err, ep)] != ["hipDNN"]:
            fail(f"{what}: {ep} must be forwarded: {conv_routes(err, ep)}")
    return err


def loader_missing(c):
    unavailable(c, {"HIPDNN_BACKEND_LIBRARY_PATH": "/nonexistent-hipdnn"},
                ["/nonexistent-hipdnn/libhipdnn_backend.so"], "missing library")


# Every form of version string a hipDNN backend reports, and the outcome.
ACCEPTED_VERSIONS = ["0.4.0.ab12cd3", "0.3.0.unknown", "0.2.0.1a2b3c4", "0.0.1", "1.2.3.9f3e2a1", "1.2.3.unknown",
                     "1.0.0"]
REFUSED_VERSIONS = {"0.5.0.3f00d1e": "not verified", "2.0.0.9f3e2a1": "not verified",
                    "1.2": "not MAJOR.MINOR.PATCH", "garbage": "not MAJOR.MINOR.PATCH"}
ACCEPTED_PHRASE = "0.0.x to 0.4.x, 1.x"


def loader_version_forms(c):
    for v in ACCEPTED_VERSIONS:
        err = forwards_like_disabled(c, {"MINI_HIPDNN_TEST_VERSION_STRING": v}, f"version {v}")
        if [m.group(2) for m in map(LOADED.match, err) if m] != [v]:
            fail(f"version {v}: the backend-loaded line names it: {err[:4]}")
        print(f"version {v}: accepted, forwarded, results as on MIOpen")
    for v, kind in REFUSED_VERSIONS.items():
        needles = [f"`{v}`" if kind.startswith("not MAJOR") else f"version {v}", ACCEPTED_PHRASE]
        unavailable(c, {"MINI_HIPDNN_TEST_VERSION_STRING": v}, needles, f"version {v} ({kind})", backend=True)


# Revisions the version cannot tell apart, and the outcome (the probe).
def loader_revision_shapes(c):
    shapes = {
        "old-numbering": ["descriptor type 19 (OPERATION_CONVOLUTION_BACKWARD_DATA) cannot be created",
                          "descriptor type 18 does not take POINTWISE_MODE"],
        "conv-mode-int64": ["descriptor type 15 does not take CONVOLUTION_CONV_MODE (1501) as HIPDNN_TYPE_CONVOLUTION_MODE"],
    }
    for shape, needles in shapes.items():
        unavailable(c, {"MINI_HIPDNN_TEST_REVISION_SHAPE": shape}, needles + ["ABI differs"],
                    f"revision {shape}", backend=True)
    # An accepted version with the older numbering (0.0.1 spans both): the probe, not the gate, refuses it.
    unavailable(c, {"MINI_HIPDNN_TEST_VERSION_STRING": "0.0.1", "MINI_HIPDNN_TEST_REVISION_SHAPE": "old-numbering"},
                ["hipDNN version 0.0.1", "descriptor type 18 does not take POINTWISE_MODE"], "0.0.1 of the older revision",
                backend=True)
    forwards_like_disabled(c, {"MINI_HIPDNN_TEST_REVISION_SHAPE": "no-tensor-alignment"}, "no-tensor-alignment")
    # The probe is per group: batchnorm types numbered otherwise leave convolution forwarding.
    forwards_like_disabled(c, {"MINI_HIPDNN_TEST_REVISION_SHAPE": "batchnorm-unnumbered"}, "batchnorm-unnumbered")
    print("revision shapes: older numbering and INT64 CONV_MODE refused by the probe; no alignment attribute "
          "and renumbered batchnorm types forward convolution")


def loader_missing_symbol(c):
    unavailable(c, {"HIPDNN_BACKEND_LIBRARY_PATH": c.fake_dir}, ["hipdnnBackendExecute"], "missing symbol")


def loader_relative_env(c):
    _, err = c.run(["find"], env={"HIPDNN_BACKEND_LIBRARY_PATH": "relative/dir"}, backend=False)
    warning = f"{WRAPPER} warning: HIPDNN_BACKEND_LIBRARY_PATH=`relative/dir` is not an absolute directory"
    expect_count(err, warning, 1, "relative override: one warning")
    expect_count(err, UNAVAILABLE, 1, "relative override: ignored, so the backend is not found")
    print("a relative HIPDNN_BACKEND_LIBRARY_PATH is reported once and ignored")


def loader_threads(c):
    out, err = c.run(["threads"], env={"HIPDNN_BACKEND_LIBRARY_PATH": "/nonexistent-hipdnn"}, backend=False)
    expect_count(err, UNAVAILABLE, 1, "64 racing first calls, backend missing")
    if [c[:2] for c in calls(out)] != [("threads", 1)]:
        fail(f"64 threads: every call returns miopenStatusNotInitialized: {out}")
    out, err = c.run(["threads"])
    if sum(1 for l in err if LOADED.match(l)) != 1 or [c[:2] for c in calls(out)] != [("threads", 0)]:
        fail(f"64 racing first calls with the backend present: one load, all succeed: {out} {err[:5]}")
    print("64 racing first calls: one load, one diagnostic")


def loader_search_order(c):
    """Module directory, then ../lib and ../lib64, as hipDNN documents its search."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = os.path.join(tmp, "prefix", "lib")
        shutil.copytree(c.install_lib, lib, symlinks=True)
        lib64 = os.path.join(tmp, "prefix", "lib64")
        shutil.copytree(c.backend_dir, lib64, symlinks=True)
        for lib_dir, where in ((lib, lib64),):
            _, err = c.run(["find"], backend=False, lib_dir=lib_dir)
            loaded = [LOADED.match(l).group(1) for l in err if LOADED.match(l)]
            if loaded != [os.path.join(where, "libhipdnn_backend.so")]:
                fail(f"no env: the backend in ../lib64 is found: {loaded}\n{err[-5:]}")
        # A backend beside libMIOpen.so comes before ../lib64.
        shutil.copy(os.path.join(c.backend_dir, "libhipdnn_backend.so"), lib)
        shutil.copytree(os.path.join(c.backend_dir, "hipdnn_plugins"), os.path.join(lib, "hipdnn_plugins"))
        _, err = c.run(["find"], backend=False, lib_dir=lib)
        loaded = [LOADED.match(l).group(1) for l in err if LOADED.match(l)]
        if loaded != [os.path.join(lib, "libhipdnn_backend.so")]:
            fail(f"a backend beside libMIOpen.so wins over ../lib64: {loaded}")
        # The environment variable comes first.
        _, err = c.run(["find"], lib_dir=lib)
        loaded = [LOADED.match(l).group(1) for l in err if LOADED.match(l)]
        if loaded != [os.path.join(c.backend_dir, "libhipdnn_backend.so")]:
            fail(f"HIPDNN_BACKEND_LIBRARY_PATH wins over the module directory: {loaded}")
    print("search order: HIPDNN_BACKEND_LIBRARY_PATH, libMIOpen.so's directory, ../lib64")


# --- no re-entry and tuning db --------------------------------------------------
def no_reentry(c):
    _, err = c.run(["find"], engine="provider", env={"MINI_HIPDNN_TEST_TRACE_EXECUTE": "1"})
    execs = [l for l in err if l.startswith("mini-hipdnn: execute on engine")]
    if len(execs) != 2 or any("MIOPEN_ENGINE" not in l for l in execs):
        fail(f"the MIOpen provider engine ran Find and the call: {execs}")
    # The provider called MIOpen Private's Find and convolution (MIOpen's own
    # call log shows them, under their public names: the program's calls were
    # forwarded, so MIOpen Private saw only the provider's), yet each public
    # entry point shows exactly one wrapper trace line: nothing came back
    # through libMIOpen.so.
    for ep in ("miopenFindConvolutionForwardAlgorithm", "miopenConvolutionForward"):
        if len(conv_routes(err, ep)) != 1:
            fail(f"{ep}: expected exactly the program's one call in the wrapper trace: {conv_routes(err, ep)}")
        if not miopen_ran(err, ep):
            fail(f"{ep}: the provider's call into MIOpen Private is not in MIOpen's log")
    print("no re-entry: the provider's MIOpen calls reach Private directly")


def tuning_db(c):
    def find_run(db, mode):
        env = {"MIOPEN_USER_DB_PATH": db, "MIOPEN_HIPDNN_FORWARDING": mode}
        out, _ = c.run(["find"], env=env)
        if out.find_result is None:
            fail(f"no Find result: {out}")
        return out.find_result

    def snapshot(db):
        return {f: open(os.path.join(db, f), "rb").read() for f in sorted(os.listdir(db))}
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "db")
        os.makedirs(db)
        find_run(db, "enabled")
        if os.listdir(db):
            fail(f"a forwarded Find created files in the find-db directory: {os.listdir(db)}")
        find_run(db, "disabled")
        before = snapshot(db)
        if not before:
            fail("MIOpen's Find did not write its find-db (the test cannot see the bypass)")
        find_run(db, "enabled")
        if snapshot(db) != before:
            fail("a forwarded Find changed MIOpen's find-db")
        recorded = re.search(r"=\w+:([0-9.e+-]+),", before[next(iter(before))].decode())
        again = find_run(db, "disabled")
        t = float(again["time"])
        if recorded is None or abs(t - float(recorded.group(1))) > 1e-6 * max(1.0, t):
            fail(f"the disabled run must reuse the recorded entry: {again} vs {before}")
    print("tuning db: untouched by forwarded calls, reused when forwarding is off")


# --- the trace alone, and the exit summary -------------------------------------
def log_routing_alone(c):
    def run(env):
        _, err = c.run(["repeat", "2"], env=dict({"MIOPEN_LOG_LEVEL": None}, **env))
        return sum(1 for l in err if TRACE.match(l)), sum(1 for l in err if l.startswith(MIOPEN_LOG))
    trace, miopen_log = run({"MIOPEN_HIPDNN_LOG_ROUTING": "1"})
    if trace < 3 or miopen_log:
        fail(f"MIOPEN_HIPDNN_LOG_ROUTING=1: routing trace ({trace} lines) without MIOpen's log ({miopen_log})")
    trace, miopen_log = run({"MIOPEN_LOG_LEVEL": "5"})
    if trace < 3 or not miopen_log:
        fail(f"MIOPEN_LOG_LEVEL=5: routing trace ({trace}) and MIOpen's own log ({miopen_log}) both")
    trace, _ = run({})
    if trace:
        fail("neither set: no routing trace")
    print("MIOPEN_HIPDNN_LOG_ROUTING=1 selects the routing trace alone")


def exit_summary(c):
    env = {"MIOPEN_HIPDNN_EXIT_SUMMARY": "1", "MIOPEN_LOG_LEVEL": None}
    _, err = c.run(["repeat", "3"], env=env)
    expect_count(err, EXIT_SUMMARY, 1, "exit summary, enabled")
    rows = summary_rows(err)
    if rows.get(("miopenConvolutionForward", SUMMARY_FORWARDED)) != 3 or rows.get(("miopenCreate", SUMMARY_NOT_IN_SET)) != 1:
        fail(f"exit summary, enabled: 3 forwarded convolutions, 1 miopenCreate: {rows}")
    # misses: the plain plan and, from the workspace query, the fused conv+bias+ReLU plan.
    if (plan_cache_counters(err) or (0, 0))[:2] != (3, 2):
        fail(f"exit summary: plan-cache counters: {err[-3:]}")
    _, err = c.run(["repeat", "3"], env=dict(env, MIOPEN_HIPDNN_FORWARDING="disabled"))
    if summary_rows(err).get(("miopenConvolutionForward", SUMMARY_DISABLED)) != 3:
        fail(f"exit summary, disabled: every call counted: {err}")
    _, err = c.run(["exitthread"], env=env)
    expect_count(err, EXIT_SUMMARY, 1, "exit() from a thread")
    _, err = c.run(["forkexit"], env=env)
    expect_count(err, EXIT_SUMMARY, 1, "a forked child that _exit()s prints none, the parent one")
    if summary_rows(err).get(("miopenConvolutionForward", SUMMARY_FORWARDED)) != 1:
        fail("the parent's summary counts the parent's call only")
    _, err = c.run(["repeat", "3"], env={"MIOPEN_LOG_LEVEL": None})
    expect_count(err, EXIT_SUMMARY, 0, "no summary unless asked")
    print("exit summary: once per process, at exit() from any thread, not from a child's _exit()")


# --- descriptors changed between forwarded calls (issue 24) ------------------
CHANGE_STEPS = ["base", "base again", "dims", "strides", "type", "padding", "stride", "dilation", "groups",
                "mode transpose", "find mode normal", "find mode fast", "activation relu", "activation clippedrelu",
                "recreated", "recreated again", "fusion plan", "fusion plan again", "fusion input changed",
                "fusion plan recreated"]
# Routing of each step's call in the enabled run (in call order per entry point).
F, P = "hipDNN: forwarded", "MIOpen Private: declined: "
CHANGE_ROUTES = {
    # Each compute call follows its GetWorkSpaceSize, which built the plan.
    "miopenConvolutionForward": [F + "; plan cache hit"] * 9 + [P + "miopenTranspose mode"]
    + [F + "; plan cache hit"] * 2,
    # Find mode Normal asks hipDNN for global.benchmarking: forwarded too.
    "miopenFindConvolutionForwardAlgorithm": [F, F],
    "miopenConvolutionBiasActivationForward": [F, P + "activation mode 7"],
    "miopenExecuteFusionPlan_v2": [F + "; plan cache hit", F + "; plan cache hit", P + "inputDesc differs", F],
}


def change_mismatches(c, args):
    """What differs between the disabled and the enabled run of
    descriptor_changes_consumer: results per step, then routing."""
    changes = os.path.join(os.path.dirname(c.consumer), "descriptor_changes_consumer")
    cc = Ctx.__new__(Ctx)
    cc.__dict__.update(c.__dict__, consumer=changes)
    d_out, _ = cc.run(args, env={"MIOPEN_HIPDNN_FORWARDING": "disabled", **address_reuse_env()})
    e_out, e_err = cc.run(args, env=address_reuse_env())
    d, e = calls(d_out), calls(e_out)
    if [x[0] for x in d] != CHANGE_STEPS or [x[0] for x in e] != CHANGE_STEPS:
        fail(f"steps differ from {CHANGE_STEPS}:\n{d_out}\n{e_out}")
    for what in ("recreated", "plan recreated"):
        if not e_out.holds(f"{what} at the same address"):
            fail(f"{what}: the destroyed object was not recreated at its address (the allocator chose another): "
                 "the address-reuse step proves nothing")
    bad = []
    for (step, ds, dsum), (_, es, esum) in zip(d, e):
        scale = max(1.0, abs(dsum or 0.0))
        tol = (1e-3 if step == "type" else 1e-5) * scale  # fp16 storage in the "type" step
        # MIOpen's status, on both paths
        rejected = step in ("mode transpose", "activation clippedrelu", "fusion input changed")
        differs = dsum is not None and abs(dsum - esum) > tol
        if ds != es or (ds != 0) != rejected or differs:
            bad.append(f"{step}: status {es} sum {esum!r} with forwarding vs status {ds} sum {dsum!r} without")
    routes = traces(e_err)
    for ep, want in CHANGE_ROUTES.items():
        got = [f"{t}: {r}" for (p, _f, t, r) in routes if p == ep]
        if len(got) != len(want) or any(not g.startswith(w) for g, w in zip(got, want)):
            bad.append(f"{ep}: routes {got}, expected {want}")
    return bad


def descriptor_changes(c):
    bad = change_mismatches(c, [])
    if bad:
        fail("a forwarded call did not use its descriptors' new values:\n  " + "\n  ".join(bad))
    print(f"{len(CHANGE_STEPS)} steps: every setter's change reached the next forwarded call")


def descriptor_changes_negative_bypass(c):
    """A change made past the wrapper (MIOpen Private's setter called
    directly) is not seen: the comparison must catch the stale result."""
    bad = change_mismatches(c, ["bypass"])
    if not any(b.startswith("dims:") for b in bad):
        fail(f"a change past the wrapper went unnoticed by the comparison: {bad}")
    print("caught: " + next(b for b in bad if b.startswith("dims:")))


TESTS = {
    "sequences_reference": lambda c: sequences(c, "reference"),
    "sequences_provider": lambda c: sequences(c, "provider"),
    "cache_repeat": cache_repeat, "cache_evict": cache_evict, "cache_release": cache_release,
    "cache_stream": cache_stream, "cache_stream_back": cache_stream_back, "loader_missing": loader_missing,
    "loader_version_forms": loader_version_forms, "loader_revision_shapes": loader_revision_shapes,
    "loader_missing_symbol": loader_missing_symbol, "loader_relative_env": loader_relative_env,
    "loader_threads": loader_threads, "loader_search_order": loader_search_order,
    "no_reentry": no_reentry, "tuning_db": tuning_db,
    "log_routing_alone": log_routing_alone, "exit_summary": exit_summary,
    "descriptor_changes": descriptor_changes,
    "descriptor_changes_negative_bypass": descriptor_changes_negative_bypass,
}


def main():
    if sys.argv[1:] == ["--list"]:  # the CTests' names (test/forwarding/CMakeLists.txt)
        print("\n".join(TESTS))
        return
    ap = argparse.ArgumentParser()
    ap.add_argument("test", choices=sorted(TESTS))
    for opt in ("consumer", "backend-dir", "provider-dir", "missing-symbol-dir", "install-lib"):
        ap.add_argument(f"--{opt}", required=True)
    a = ap.parse_args()
    return checked(f"check_forwarding {a.test}", lambda: TESTS[a.test](Ctx(a)))


if __name__ == "__main__":
    sys.exit(main())
