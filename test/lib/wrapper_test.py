"""What every test checker of this repository shares, written once.

* The code's facts: `miopen-wrap facts` (the families, the forwarding table,
  the variables the wrapper reads, MIOpen's audited variables, ...), a JSON
  the build writes into the build tree. CTest names it in MIOPEN_WRAP_FACTS;
  outside CTest, MIOPEN_WRAP_BIN names a `miopen-wrap` to ask.
* The environment scrub: one list of every variable the wrapper, MIOpen's
  audited variables, hipDNN and the test beds read (the code's facts and
  test/lib/test-environment.json), removed from every run a checker starts,
  so nothing in a developer's shell leaks into a test.
* The wrapper's documented texts (the stderr prefix, the routing-trace line,
  its two targets, the "backend unavailable" diagnostic, the exit summary)
  and their parsers. They are the tests' expectations, so they are written
  here, not read from the code; test/lib/check_facts.py checks them against
  the code's facts.
* MIOpen's own call log (`miopen_ran`), its MIOPEN_ENABLE_LOGGING_CMD driver
  lines (`miopen_lines`, `driver_lines_written_by_wrapper`), and running a
  program.
* The verdict every checker ends with (`verdict`, `checked`, `fail`).

The consumers' own output is the test protocol's, read by protocol.py.

A checker imports it with `sys.path.insert(0, <repo>/test/lib)`.
`python3 wrapper_test.py run [--set NAME=VALUE]... -- PROGRAM ARGS...` runs a
program in the scrubbed environment (for the CTests that run a program
directly).
"""
from __future__ import annotations

import argparse
import contextlib
import difflib
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from typing import Iterable, NamedTuple

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
FACTS_VAR = "MIOPEN_WRAP_FACTS"
TOOL_VAR = "MIOPEN_WRAP_BIN"
SCHEMA = 1

# --- the wrapper's documented texts (README.md, docs/forwarding.md) -----------
PREFIX = "MIOpen(hipDNN wrapper)"
WRAPPER = f"{PREFIX}:"  # every line the wrapper writes starts so
TRACE_LINE = f"{PREFIX}: {{entry}} [{{family}}] -> {{target}} ({{reason}})"
HIPDNN = "hipDNN"  # the targets a trace line names
PRIVATE = "MIOpen Private"
DECLINED = "declined: "  # a handler's decline reason starts so
UNAVAILABLE = f"{WRAPPER} error: MIOPEN_HIPDNN_FORWARDING=enabled but the hipDNN backend is unavailable"
LOADED = re.compile(rf"^{re.escape(WRAPPER)} hipDNN backend (\S+) \(version ([^)]*)\) loaded$")
EXIT_SUMMARY = f"{WRAPPER} exit summary"
SUMMARY_ROW = re.compile(r"^\s+(miopen\w+)\s+(.+?)\s+(\d+)$")  # entry point, outcome, calls
# The exit summary's outcomes (one vocabulary: what happened, then who ran the calls).
SUMMARY_FORWARDED = "forwarded (hipDNN)"
SUMMARY_FAILED = "failed (hipDNN's error returned)"
SUMMARY_REFUSED = "refused (the wrapper, with MIOpen's status)"
SUMMARY_DECLINED = "declined (MIOpen Private)"
SUMMARY_RECORDED = "recorded (MIOpen Private)"
SUMMARY_NOT_IN_SET = "not in the set (MIOpen Private)"
SUMMARY_OPTED_OUT = "opted out (MIOpen Private)"
SUMMARY_DISABLED = "forwarding disabled (MIOpen Private)"
SUMMARY_OUTCOMES = (SUMMARY_FORWARDED, SUMMARY_FAILED, SUMMARY_REFUSED, SUMMARY_DECLINED, SUMMARY_RECORDED, SUMMARY_NOT_IN_SET,
                    SUMMARY_OPTED_OUT, SUMMARY_DISABLED)
SUMMARY_CAUSES = "  declined, by entry point and cause (most first):"
SUMMARY_CAUSE = re.compile(r"^    (miopen\w+)\s+(\d+)  (.*)$")  # entry point, calls, cause
PLAN_CACHE_RUN = re.compile(r"^  plan cache over the run: hits (\d+), misses (\d+), evictions (\d+)$")
PLAN_CACHE_AT_EXIT = re.compile(r"^  plan cache at exit: (\d+) plan\(s\) held, capacity (\d+) \(.*\)$")
FORWARDED_ERROR = "[hipDNN-forwarded] "  # miopenGetErrorString's prefix for a forwarded failure

# How every line of the tests' protocol starts (test/consumers/test_protocol.hpp;
# test/lib/protocol.py reads them).
RECORD = '{"kind":'

# MIOpen's own log lines (the mini MIOpen writes MIOpen's format).
MIOPEN_LOG = "MIOpen(HIP): "
POINTER = re.compile(r"0x[0-9a-fA-F]+")

_FIELDS = {"entry": r"(?P<entry>\w+)", "family": r"(?P<family>[^\]]*)", "target": r"(?P<target>.+?)",
           "reason": r"(?P<reason>.*)"}


def _pattern(template: str) -> str:
    """A template's literal text escaped and its {fields} as named groups."""
    parts = re.split(r"\{(\w+)\}", template)
    return "^" + "".join(re.escape(p) if i % 2 == 0 else _FIELDS[p] for i, p in enumerate(parts)) + "$"


TRACE = re.compile(_pattern(TRACE_LINE))


class Trace(NamedTuple):
    """One routing-trace line."""
    entry: str
    family: str
    target: str
    reason: str

    @property
    def forwarded(self) -> bool:
        return self.target == HIPDNN

    @property
    def declined(self) -> bool:
        return self.target == PRIVATE and self.reason.startswith(DECLINED)


def lines_of(text: str | Iterable[str]) -> list[str]:
    return text.splitlines() if isinstance(text, str) else list(text)


def trace(line: str) -> Trace | None:
    m = TRACE.match(line)
    return Trace(*m.group("entry", "family", "target", "reason")) if m else None


def traces(text: str | Iterable[str]) -> list[Trace]:
    """Every routing-trace line of stderr (a string or its lines)."""
    return [t for t in map(trace, lines_of(text)) if t]


def wrapper_lines(text: str | Iterable[str]) -> list[str]:
    return [l for l in lines_of(text) if l.startswith(WRAPPER)]


def summary_rows(text: str | Iterable[str]) -> dict[tuple[str, str], int]:
    """The exit summary's rows: (entry point, outcome) -> calls."""
    rows, inside = {}, False
    for line in lines_of(text):
        if line.startswith(EXIT_SUMMARY):
            inside = True
        elif line == SUMMARY_CAUSES:
            inside = False
        elif inside and (m := SUMMARY_ROW.match(line)) and m.group(1) != "entry":
            rows[(m.group(1), m.group(2))] = int(m.group(3))
    return rows


def summary_causes(text: str | Iterable[str]) -> list[tuple[str, int, str]]:
    """The exit summary's declined calls, in printed order: (entry point, calls, cause)."""
    out, inside = [], False
    for line in lines_of(text):
        if line == SUMMARY_CAUSES:
            inside = True
        elif inside and (m := SUMMARY_CAUSE.match(line)):
            out.append((m.group(1), int(m.group(2)), m.group(3)))
        elif inside:
            break
    return out


def plan_cache_counters(text: str | Iterable[str]) -> tuple[int, int, int] | None:
    """The exit summary's plan-cache counters over the run: (hits, misses, evictions)."""
    for line in lines_of(text):
        if m := PLAN_CACHE_RUN.match(line):
            return int(m.group(1)), int(m.group(2)), int(m.group(3))
    return None


def miopen_ran(text: str | Iterable[str], entry: str) -> bool:
    """Whether MIOpen's own call log (level 5) shows `entry` running in MIOpen
    Private: its signature line, under the public name the logger prints."""
    return any(l.startswith(MIOPEN_LOG) and f" {entry}(" in l for l in lines_of(text))


# MIOpen's MIOPEN_ENABLE_LOGGING_CMD lines: `MIOpen(HIP): Command [LogCmd...] ./bin/MIOpenDriver ...`.
DRIVER = "./bin/MIOpenDriver "
COMMAND = f"{MIOPEN_LOG}Command ["


def miopen_lines(text: str | Iterable[str]) -> str:
    """stderr without the wrapper's own lines and the tests' protocol records
    (pointer values removed): what MIOpen wrote, to compare byte for byte."""
    return "".join(without_pointers(l) + "\n" for l in lines_of(text)
                   if not l.startswith(WRAPPER) and not l.startswith(RECORD))


def driver_lines_written_by_wrapper(text: str | Iterable[str]) -> list[tuple[int, Trace]]:
    """(line index, trace) of each MIOpenDriver line directly followed by a
    forwarded call's trace line: the lines the wrapper wrote for the calls
    MIOpen Private did not run."""
    lines = lines_of(text)
    out = []
    for i in range(len(lines) - 1):
        t = trace(lines[i + 1])
        if DRIVER in lines[i] and not lines[i].startswith(WRAPPER) and t and t.target != PRIVATE:
            out.append((i, t))
    return out


def without_pointers(text: str) -> str:
    return POINTER.sub("0xPTR", text)


def unified_diff(a: str, b: str, name_a: str, name_b: str, lines: int = 12) -> str:
    return "\n".join(list(difflib.unified_diff(a.splitlines(), b.splitlines(), name_a, name_b, lineterm="", n=0))[:lines])


# --- the verdict: how every checker ends ------------------------------------------
class Failure(Exception):
    """A problem after which a checker cannot go on (fail())."""


def fail(msg: str):
    """Stops the checker with one problem; checked() turns it into the verdict."""
    raise Failure(msg)


def verdict(checker: str, problems: list[str], shown: int = 40) -> int:
    """Prints a checker's problems (`FAIL: ...`, the first `shown`) and its
    verdict line; the exit status: 1 when there are problems."""
    for x in problems[:shown]:
        print(f"FAIL: {x}")
    if len(problems) > shown:
        print(f"... and {len(problems) - shown} more")
    print(f"{checker}: {'FAILED' if problems else 'PASSED'}")
    return 1 if problems else 0


def checked(checker: str, body) -> int:
    """Runs a checker's body (it returns its problems, or None for none) and
    gives the verdict; a fail() inside it, or a consumer's unreadable record
    (protocol.ProtocolError, a Failure), is one more problem."""
    problems = []
    try:
        problems = list(body() or [])
    except Failure as e:
        problems.append(str(e))
    return verdict(checker, problems)


# --- the code's facts ------------------------------------------------------------
@functools.cache
def facts() -> dict:
    path = os.environ.get(FACTS_VAR)
    if path:
        with open(path) as f:
            data = json.load(f)
    elif os.environ.get(TOOL_VAR):
        data = json.loads(subprocess.run([os.environ[TOOL_VAR], "facts"], capture_output=True, text=True,
                                         check=True).stdout)
    else:
        sys.exit(f"wrapper_test: the code's facts are unknown: set {FACTS_VAR} to the build's test-facts.json "
                 f"(CTest does) or {TOOL_VAR} to a miopen-wrap")
    if data.get("schema") != SCHEMA:
        sys.exit(f"wrapper_test: facts schema {data.get('schema')}, this helper reads {SCHEMA}")
    return data


def families(group: str | None = None) -> list[str]:
    """The op families (of one group), as the trace and MIOPEN_DISABLE_HIPDNN_FOR name them."""
    return [f["name"] for f in facts()["families"] if group is None or f["group"] == group]


def forwarding_set() -> dict[str, str]:
    """Entry point -> family, for every entry point of the forwarding table."""
    return {r["entry_point"]: r["family"] for r in facts()["forwarding_table"]}


@functools.cache
def test_environment() -> dict:
    with open(os.path.join(HERE, "test-environment.json")) as f:
        return json.load(f)


@functools.cache
def scrub_list() -> tuple[frozenset[str], tuple[str, ...]]:
    """(names, prefixes) of every variable a run must not inherit."""
    f, t = facts(), test_environment()
    names = {v["name"] for v in f["wrapper_variables"]}
    names |= {a["name"] for a in f["audited_variables"] if not a["prefix"]}
    names |= set(t["hipdnn"]["names"]) | set(t["test_beds"]["names"])
    prefixes = tuple(a["name"] for a in f["audited_variables"] if a["prefix"])
    return frozenset(names - set(t["kept"])), prefixes


def environment(extra: dict | None = None, base: dict | None = None) -> dict:
    """`base` (the process environment) without the scrub list, then `extra`
    (a value of None unsets the variable)."""
    names, prefixes = scrub_list()
    env = {k: v for k, v in (os.environ if base is None else base).items()
           if k not in names and not k.startswith(prefixes)}
    for k, v in (extra or {}).items():
        if v is None:
            env.pop(k, None)
        else:
            env[k] = v
    return env


def run(cmd: list[str], extra: dict | None = None, timeout: float | None = None) -> subprocess.CompletedProcess:
    """Runs `cmd` in the scrubbed environment plus `extra`; output captured as text."""
    return subprocess.run(cmd, env=environment(extra), capture_output=True, text=True, timeout=timeout)


@contextlib.contextmanager
def user_db(seed: str | None = None, keep: str | None = None, parent: str | None = None, cache_too: bool = False):
    """A MIOpen user db of its own for one run, as the variables to set: a copy
    of `seed` when given (Find then answers from the db, not from timings that
    vary between runs); `keep` receives the db the run leaves; `cache_too`
    points MIOPEN_CUSTOM_CACHE_DIR there as well."""
    with tempfile.TemporaryDirectory(prefix="user-db-", dir=parent) as work:
        db = os.path.join(work, "db")
        if seed:
            shutil.copytree(seed, db)
        else:
            os.makedirs(db)
        env = {"MIOPEN_USER_DB_PATH": db}
        if cache_too:
            env["MIOPEN_CUSTOM_CACHE_DIR"] = db
        yield env
        if keep:
            shutil.copytree(db, keep)


def main() -> int:
    ap = argparse.ArgumentParser(description="Run a program in the scrubbed environment.")
    sub = ap.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run")
    r.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    r.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    program = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not program:
        ap.error("run: no program")
    env = environment(dict(kv.split("=", 1) for kv in a.set))
    os.execvpe(program[0], program, env)
    return 2


if __name__ == "__main__":
    sys.exit(main())
