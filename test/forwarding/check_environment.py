#!/usr/bin/env python3
"""MIOpen's own environment variables under forwarding (docs/environment.md).

Runs test/consumers/conv_differential (random convolution problems in all
three directions, 2-D/3-D, NCHW/NHWC/padded, fp32/fp16/bf16) from the
installed tree (or another group's consumer: --group names the group whose
calls are checked, --consumer-arg passes its options; a group's own cases:
test/groups/<group>/environment_cases.txt) against
  baseline  the pre-wrapper libMIOpen.so.1 (LD_LIBRARY_PATH)
  disabled  the wrapper, MIOPEN_HIPDNN_FORWARDING=disabled
  enabled   the wrapper, forwarding enabled on the reference engine, with the
            routing trace (MIOPEN_HIPDNN_LOG_ROUTING=1)
Each run gets its own MIOPEN_USER_DB_PATH, a copy of one find-db seeded by a
first baseline run (Find then answers from the db, not from run-to-run
timings); every variable of the test scrub (test/lib/wrapper_test.py) is
removed first.

Subcommands (one CTest each):
  variable NAME=VALUE --expect decline|warn|none [--with NAME2=VALUE2]
      set, enabled:  decline -> every call of the group stays on MIOpen
                     Private and the trace names NAME=VALUE, results equal the
                     disabled run's; warn -> exactly one warning naming
                     NAME=VALUE and how to silence it, and forwarding goes
                     on; none -> the routing is the unset run's and no
                     wrapper line names NAME (--with: NAME2=VALUE2 set too,
                     the variable that silences NAME's warning)
      unset:         the same consumer forwards and no wrapper line names NAME
      disabled:      stdout and stderr byte-identical to the baseline's, both
                     with NAME=VALUE (pointer values removed)
  descriptor-find-mode MODE --expect decline|none
      the consumer sets each descriptor's Find mode to MODE through
      miopenHiddenSetConvolutionFindMode (as MIGraphX does).
      disabled:      byte-identical to the baseline's, both with MODE
      set, enabled:  decline -> every legacy Find call stays on MIOpen Private
                     naming the descriptor's mode, the unset run forwarded
                     Finds, other convolution calls still forward, and each
                     legacy-find case line (status, failing step, the
                     algorithm and workspace Find returned) equals the
                     disabled run's (maxerr left out: the compute after Find
                     is still forwarded); none -> the routing is the unset
                     run's and no wrapper line names the mode
  driver-line [--drop-wrapper-lines] [--kinds TEXT...] [--min-lines N]
      MIOPEN_ENABLE_LOGGING_CMD=1: MIOpen's lines on stderr (the wrapper's own
      `MIOpen(hipDNN wrapper):` lines left out) are byte-identical across the
      three runs although the enabled run forwarded most convolutions: the
      wrapper wrote MIOpen's MIOpenDriver line for each (every kind of line
      among them; with --consumer fusion_differential the fusion plans'
      executes and their CBAInfer / CAInfer lines). The negative control
      (--drop-wrapper-lines) removes the lines the wrapper wrote (each is the
      line just before a forwarded call's trace line); the comparison must
      then fail.
  driver-replay --driver BIN --run-sample PATH
      the distinct lines the wrapper wrote, replayed through MIOpenDriver
      (every direction verified against the driver's reference).
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import (DECLINED, DRIVER, HIPDNN, PRIVATE, WRAPPER, checked, driver_lines_written_by_wrapper,  # noqa: E402
                          fail, families, miopen_lines, run as run_scrubbed, traces, unified_diff as diff, user_db,
                          without_pointers as scrub, wrapper_lines)

# Each kind of driver line the wrapper writes for conv_differential's calls.
CONV_DRIVER_KINDS = ["[LogCmdConvolution]", "[LogCmdFindConvolution]", " -S 0", " -F 1 ", " -F 2 ", " -F 4 "]


class Runner:
    """Runs the consumer; every run starts from a copy of one find-db seeded by
    a first baseline run, so Find answers from the db (not from timings that
    vary between runs) and the runs stay comparable."""

    def __init__(self, a):
        self.a = a
        self.group = a.group  # the group whose calls are checked (--group)
        self.kept = tempfile.TemporaryDirectory()
        self.seeded_db = None
        seeded = os.path.join(self.kept.name, "db")
        self.run("baseline", keep_db=seeded)
        self.seeded_db = seeded

    def run(self, mode, extra=None, keep_db=None, args=()):
        env = {}
        if mode == "baseline":
            env["LD_LIBRARY_PATH"] = self.a.baseline_dir
        else:
            env["MIOPEN_HIPDNN_FORWARDING"] = mode
            env["HIPDNN_BACKEND_LIBRARY_PATH"] = self.a.backend_dir
        if mode == "enabled":
            env["MIOPEN_HIPDNN_LOG_ROUTING"] = "1"
        env.update(extra or {})
        cmd = [self.a.consumer, "--cases", str(self.a.cases), "--seed", str(self.a.seed), *self.a.consumer_arg,
               *args]
        with user_db(seed=self.seeded_db, keep=keep_db) as db:
            p = run_scrubbed(cmd, dict(env, **db), timeout=300)
        if p.returncode != 0:
            fail(f"{mode} run with {extra} exited {p.returncode}:\n{p.stdout[-2000:]}\n{p.stderr[-3000:]}")
        if mode == "baseline" and WRAPPER in p.stderr:
            fail("the baseline run loaded the wrapper (LD_LIBRARY_PATH not honoured?)")
        return p.stdout, p.stderr


def group_traces(r, err):
    """The trace lines of the checked group's calls (the convolution's by default)."""
    fams = families(r.group)
    return [t for t in traces(err) if t.family in fams]


# --- one variable ----------------------------------------------------------------
def check_disabled_is_baseline(r, extra, args=()):
    b_out, b_err = r.run("baseline", extra, args=args)
    d_out, d_err = r.run("disabled", extra, args=args)
    for what, b, d in (("stdout", b_out, d_out), ("stderr", scrub(b_err), scrub(d_err))):
        if b != d:
            fail(f"disabled with {extra}: {what} differs from the baseline's:\n{diff(b, d, 'baseline', 'disabled')}")
    return d_out


def check_unset(r, name):
    _, err = r.run("enabled")
    convs = group_traces(r, err)
    forwarded = sum(1 for t in convs if t.forwarded)
    if forwarded < 10:
        fail(f"unset: only {forwarded} {r.group} calls forwarded (expected most of {len(convs)})")
    named = [l for l in wrapper_lines(err) if name in l]
    if named:
        fail(f"unset: wrapper lines name {name}: {named[:3]}")
    return convs


def check_decline(r, name, value, d_out):
    out, err = r.run("enabled", {name: value})
    convs = group_traces(r, err)
    reason = f"{DECLINED}{name}={value} ("
    wrong = [t for t in convs if t.target != PRIVATE or not t.reason.startswith(reason)]
    if not convs or wrong:
        fail(f"{name}={value}: expected every {r.group} call '-> MIOpen Private ({reason}...)', "
             f"{len(wrong)} of {len(convs)} are not: {wrong[:3]}")
    if not any(f"the {r.group} families stay on MIOpen while {name}={value} (" in l for l in wrapper_lines(err)):
        fail(f"{name}={value}: the banner does not say the {r.group} families stay on MIOpen")
    if out != d_out:
        fail(f"{name}={value}: results differ from the disabled run's:\n{diff(d_out, out, 'disabled', 'enabled')}")
    return f"{len(convs)} {r.group} calls declined naming {name}={value}"


SILENCE = "; to silence this, "


def check_warn(r, name, value, extra):
    _, err = r.run("enabled", {name: value, **extra})
    warnings = [l for l in wrapper_lines(err) if l.startswith(f"{WRAPPER} warning: {name}={value} (")]
    if len(warnings) != 1:
        fail(f"{name}={value}: expected one warning naming it, got {len(warnings)}:\n" + "\n".join(wrapper_lines(err)[:10]))
    if SILENCE not in warnings[0]:
        fail(f"{name}={value}: the warning does not say how to silence it ({SILENCE.strip()!r}): {warnings[0]}")
    forwarded = sum(1 for t in group_traces(r, err) if t.forwarded)
    if forwarded < 10:
        fail(f"{name}={value}: forwarding should go on, only {forwarded} {r.group} calls forwarded")
    return f"one warning ({warnings[0][len(WRAPPER) + 1:]}); {forwarded} {r.group} calls forwarded"


def route(trace):
    """(entry point, target, reason) without a forwarded call's note (it
    carries measured times)."""
    entry, _family, target, reason = trace
    return entry, target, reason.split(";")[0] if target == HIPDNN else reason


def check_none(r, name, value, unset_convs, extra):
    _, err = r.run("enabled", {name: value, **extra})
    routes = [route(t) for t in group_traces(r, err)]
    return same_routing_as_unset(r, f"{name}={value}", routes, [route(t) for t in unset_convs], err, name)


def same_routing_as_unset(r, label, routes, unset, err, needle):
    """The set run routed every convolution call as the unset run did, and
    no wrapper line names the setting (`needle`)."""
    if routes != unset:
        first = next((i for i, (a, b) in enumerate(zip(unset, routes)) if a != b), min(len(unset), len(routes)))
        fail(f"{label}: routing differs from the unset run's at call {first} of {len(unset)}: "
             f"unset {unset[first:first + 1]} vs set {routes[first:first + 1]}")
    # The banner may say another group's families stay on MIOpen while it is
    # set (a variable of that group's); nothing may name it about this group.
    others = re.compile(r"the (?!%s )\S+ families stay on MIOpen while %s=" % (re.escape(r.group), re.escape(needle)))
    named = [l for l in wrapper_lines(err) if needle in others.sub("", l)]
    if named:
        fail(f"{label}: wrapper lines name it: {named[:3]}")
    return f"routing identical to the unset run ({len(routes)} {r.group} calls)"


def variable(r, a):
    name, _, value = a.assignment.partition("=")
    if not name.startswith("MIOPEN_") or not _:
        fail(f"expected NAME=VALUE with a MIOPEN_ name, got {a.assignment!r}")
    d_out = check_disabled_is_baseline(r, {name: value})
    unset_convs = check_unset(r, name)
    extra = dict([a.also.split("=", 1)]) if a.also else {}
    if a.expect == "decline":
        what = check_decline(r, name, value, d_out)
    elif a.expect == "warn":
        what = check_warn(r, name, value, extra)
    else:
        what = check_none(r, name, value, unset_convs, extra)
    print(f"{name}={value}: disabled byte-identical to baseline; unset forwards and names nothing; set: {what}")


# --- the Find mode set on the descriptor --------------------------------------------
FIND_ENTRIES = ("miopenFindConvolutionForwardAlgorithm", "miopenFindConvolutionBackwardDataAlgorithm",
                "miopenFindConvolutionBackwardWeightsAlgorithm")
SETTER = "miopenHiddenSetConvolutionFindMode"
DESCRIPTOR_REASON = f"{DECLINED}find mode Normal set on the descriptor ({SETTER})"


def find_case_lines(out):
    """The legacy-find case records without maxerr: status, failing step, and
    the algorithm and workspace the case's Find returned (its detail)."""
    return [json.dumps({k: v for k, v in r.items() if k != "maxerr"})
            for r in records(out, "case") if r["api"] == "legacy-find"]


def check_find_declined(mode, routes, unset, out, d_out):
    finds = [t for t in routes if t[0] in FIND_ENTRIES]
    wrong = [t for t in finds if t[1:] != (PRIVATE, DESCRIPTOR_REASON)]
    if len(finds) < 5 or wrong:
        fail(f"find mode {mode}: expected every Find call '-> MIOpen Private ({DESCRIPTOR_REASON})', "
             f"{len(wrong)} of {len(finds)} are not: {wrong[:3]}")
    if not any(t[0] in FIND_ENTRIES and t[1] == HIPDNN for t in unset):
        fail("the unset run forwarded no Find call: the decline would prove nothing")
    others = [t for t in routes if t[0] not in FIND_ENTRIES]
    if any(t[2] == DESCRIPTOR_REASON for t in others):
        fail(f"find mode {mode}: a call other than Find declined naming the descriptor's mode")
    forwarded = sum(1 for t in others if t[1] == HIPDNN)
    if forwarded < 10:
        fail(f"find mode {mode}: only {forwarded} other convolution calls forwarded (compute should go on)")
    got, want = find_case_lines(out), find_case_lines(d_out)
    if not want or got != want:
        fail(f"find mode {mode}: Find's results differ from the disabled run's:\n"
             f"{diff(chr(10).join(want), chr(10).join(got), 'disabled', 'enabled')}")
    return f"{len(finds)} Find calls declined naming the descriptor's mode, {len(want)} legacy-find cases equal " \
           f"the disabled run's, {forwarded} other convolution calls forwarded"


def check_find_benchmarked(r, mode, routes, unset, out, d_out, err):
    """Find mode Normal asks hipDNN for global.benchmarking: every Find
    forwarded as in the unset run, its trace note naming the knob, its
    results the disabled run's."""
    finds = [t for t in routes if t[0] in FIND_ENTRIES and t[1] == HIPDNN]
    if len(finds) < 5:
        fail(f"find mode {mode}: expected every Find call forwarded as in the unset run, only {len(finds)} are")
    # Declined only where the unset run declines too (a misaligned buffer).
    what = same_routing_as_unset(r, f"find mode {mode}", routes, unset, err, SETTER)
    knob = [l for l in err.splitlines() if any(e in l for e in FIND_ENTRIES) and "-> hipDNN" in l
            and "global.benchmarking=1" in l]
    if len(knob) < len(finds):
        fail(f"find mode {mode}: {len(knob)} of {len(finds)} Find traces name global.benchmarking=1")
    # A forwarded Find reports its own result (Direct, the plan's workspace:
    # docs/forwarding.md), so the cases' statuses, not their details, are MIOpen's.
    got, want = find_case_statuses(out), find_case_statuses(d_out)
    if not want or got != want:
        fail(f"find mode {mode}: Find cases' statuses differ from the disabled run's:\n"
             f"{diff(chr(10).join(want), chr(10).join(got), 'disabled', 'enabled')}")
    return f"{len(finds)} Find calls forwarded with global.benchmarking=1; {what}; {len(want)} legacy-find cases' " \
           f"statuses equal the disabled run's"


def find_case_statuses(out):
    """Each legacy-find case's status and failing step."""
    return [json.dumps({k: r.get(k) for k in ("case", "status", "step")})
            for r in records(out, "case") if r["api"] == "legacy-find"]


def descriptor_find_mode(r, a):
    args = ("--find-mode", str(a.mode))
    d_out = check_disabled_is_baseline(r, None, args)
    unset = [route(t) for t in group_traces(r, r.run("enabled")[1])]
    out, err = r.run("enabled", args=args)
    routes = [route(t) for t in group_traces(r, err)]
    if a.expect == "decline":
        what = check_find_declined(a.mode, routes, unset, out, d_out)
    elif a.expect == "benchmark":
        what = check_find_benchmarked(r, a.mode, routes, unset, out, d_out, err)
    else:
        what = same_routing_as_unset(r, f"find mode {a.mode}", routes, unset, err, SETTER)
    print(f"descriptor find mode {a.mode}: disabled byte-identical to baseline; set: {what}")


# --- MIOPEN_ENABLE_LOGGING_CMD ---------------------------------------------------------
def lines_written_by_wrapper(err):
    """Indices of the driver lines the wrapper wrote (wrapper_test)."""
    return [i for i, _ in driver_lines_written_by_wrapper(err)]


def driver_line(r, a):
    loud = {"MIOPEN_ENABLE_LOGGING_CMD": "1"}
    logs = {mode: r.run(mode, loud)[1] for mode in ("baseline", "disabled", "enabled")}
    mine = lines_written_by_wrapper(logs["enabled"])
    lines = logs["enabled"].splitlines()
    written = [lines[i] for i in mine]
    if a.drop_wrapper_lines:
        logs["enabled"] = "\n".join(l for i, l in enumerate(lines) if i not in set(mine)) + "\n"
    base = miopen_lines(logs["baseline"])
    commands = [l for l in base.splitlines() if f" {DRIVER}" in l]
    if len(commands) < a.min_lines:
        fail(f"the baseline logged {len(commands)} MIOpenDriver lines: MIOPEN_ENABLE_LOGGING_CMD not honoured?")
    kinds = {k: any(k in l for l in written) for k in a.kinds}
    if len(written) < a.min_lines or not all(kinds.values()):
        fail(f"the enabled run's wrapper wrote {len(written)} driver lines; kinds covered: {kinds}")
    problems = [f"MIOpen's driver command lines differ: baseline vs {mode}\n"
                f"{diff(base, miopen_lines(logs[mode]), 'baseline', mode)}"
                for mode in ("disabled", "enabled") if miopen_lines(logs[mode]) != base]
    if problems:
        return problems
    print(f"MIOpen's stderr byte-identical across baseline, disabled and enabled: {len(commands)} MIOpenDriver "
          f"lines, {len(written)} of them written by the wrapper for forwarded calls (kinds: {', '.join(kinds)})")


def driver_replay(r, a):
    """The lines the wrapper wrote for forwarded calls, replayed through
    MIOpenDriver (driver/tests/run_sample.py verifies each direction against
    the driver's own reference): the logged command reproduces a problem."""
    err = r.run("enabled", {"MIOPEN_ENABLE_LOGGING_CMD": "1"})[1]
    lines = err.splitlines()
    written = sorted({lines[i].split(DRIVER, 1)[1] for i in lines_written_by_wrapper(err)})
    if len(written) < 10:
        fail(f"only {len(written)} distinct driver lines written by the wrapper")
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as sample:
        sample.write("\n".join(written) + "\n")
        sample.flush()
        cmd = [sys.executable, "-B", a.run_sample, "--driver", a.driver, "--baseline-dir", a.baseline_dir,
               "--sample", sample.name, "--configs", "disabled"]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        fail(f"MIOpenDriver replay of the wrapper's lines failed:\n{p.stdout[-3000:]}\n{p.stderr[-2000:]}")
    print(f"{len(written)} distinct driver lines written by the wrapper replay in MIOpenDriver, every direction PASS")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--consumer", required=True, help="conv_differential of the installed tree")
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--group", default="convolution", help="the group whose calls are checked (variable)")
    ap.add_argument("--consumer-arg", action="append", default=[], metavar="ARG",
                    help="an option passed to the consumer on every run (e.g. --op=training)")
    sub = ap.add_subparsers(dest="check", required=True)
    v = sub.add_parser("variable")
    v.add_argument("assignment")
    v.add_argument("--expect", required=True, choices=("decline", "warn", "none"))
    v.add_argument("--with", dest="also", metavar="NAME=VALUE",
                   help="another variable set with it in the enabled run (one that silences a warning)")
    f = sub.add_parser("descriptor-find-mode")
    f.add_argument("mode", type=int)
    f.add_argument("--expect", required=True, choices=("decline", "benchmark", "none"))
    d = sub.add_parser("driver-line")
    d.add_argument("--drop-wrapper-lines", action="store_true", help="negative control")
    d.add_argument("--kinds", nargs="+", default=CONV_DRIVER_KINDS,
                   help="text each kind of line the wrapper must have written has (default: the convolution's)")
    d.add_argument("--min-lines", type=int, default=20,
                   help="the fewest driver lines of the baseline, and of the wrapper's")
    d = sub.add_parser("driver-replay")
    d.add_argument("--driver", required=True, help="the installed MIOpenDriver")
    d.add_argument("--run-sample", required=True, help="driver/tests/run_sample.py")
    a = ap.parse_args()
    checks = {"variable": variable, "descriptor-find-mode": descriptor_find_mode, "driver-line": driver_line,
              "driver-replay": driver_replay}
    return checked("check_environment", lambda: checks[a.check](Runner(a), a))


if __name__ == "__main__":
    sys.exit(main())
