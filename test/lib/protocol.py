"""The tests' protocol, checker side (test/consumers/test_protocol.hpp writes it).

A consumer writes one JSON object per line, each with a `kind`: its records
(one per case or call) on stdout, and `begin` / `end` markers on stderr
around each case's calls, where the wrapper's routing trace is. This module
reads both back:

  records(stdout)          the records, in order (other lines are left out)
  segments(stderr)         case id -> the stderr lines after its `begin`
  Run, Run.of_command()    one run of a consumer: exit status, records,
                           segments, and its stderr

A line that starts as a record but does not parse is an error (ProtocolError):
a consumer's output is never guessed at. The wrapper's own texts (trace
lines, the exit summary) stay the wrapper's and are parsed by wrapper_test.py.
"""
from __future__ import annotations

import collections
import json
import signal
import subprocess
from typing import Iterable

from wrapper_test import RECORD as START, Failure, lines_of

NOT_FINITE = {"inf": float("inf"), "-inf": float("-inf"), "nan": float("nan")}


class ProtocolError(Failure):
    """A line that claims to be a record but is not one (a checker's problem:
    wrapper_test.checked() reports it)."""


def record(line: str) -> dict | None:
    """The record on `line`, or None for a line of someone else's."""
    if not line.startswith(START):
        return None
    try:
        r = json.loads(line)
    except json.JSONDecodeError as e:
        raise ProtocolError(f"unreadable record ({e}): {line[:200]}") from None
    if not isinstance(r, dict) or not isinstance(r.get("kind"), str):
        raise ProtocolError(f"a record without a kind: {line[:200]}")
    return r


def records(text: str | Iterable[str], kind: str | None = None) -> list[dict]:
    """Every record of `text` (of one kind when given), in order."""
    out = [r for r in map(record, lines_of(text)) if r is not None]
    return [r for r in out if kind is None or r["kind"] == kind]


def number(value) -> float:
    """A numeric field: a JSON number, or the "inf"/"-inf"/"nan" the header
    writes for a double that is not finite."""
    return NOT_FINITE[value] if isinstance(value, str) else float(value)


def segments(text: str | Iterable[str]) -> "collections.OrderedDict":
    """Case id -> the lines of stderr between its `begin` marker and the next
    marker (`begin` or `end`), in order. A case begun twice keeps both
    segments' lines, under the one id."""
    out, current = collections.OrderedDict(), None
    for line in lines_of(text):
        r = record(line)
        if r is None:
            if current is not None:
                out[current].append(line)
        elif r["kind"] == "begin":
            current = r.get("case")
            out.setdefault(current, [])
        elif r["kind"] == "end":
            current = None
    return out


class Run:
    """One run of a consumer: what it wrote, read back."""

    def __init__(self, name: str, returncode: int, stdout: str, stderr: str, timed_out: bool = False):
        self.name, self.returncode, self.timed_out = name, returncode, timed_out
        self.stdout, self.stderr = stdout, stderr
        self.err = stderr.splitlines()
        self.records = records(stdout)
        self.segments = segments(self.err)

    def of(self, kind: str) -> list[dict]:
        return [r for r in self.records if r["kind"] == kind]

    def by_case(self, kind: str = "case") -> dict:
        """case id -> record of `kind` (a case reported twice is the checker's to find: see duplicates())."""
        return {r.get("case"): r for r in self.of(kind)}

    def duplicates(self, kind: str = "case") -> list:
        c = collections.Counter(r.get("case") for r in self.of(kind))
        return [k for k, n in c.items() if n > 1]

    @property
    def crashed(self) -> str | None:
        """How the run ended if not by exiting: `killed by SIGSEGV`, or `timed out`."""
        if self.timed_out:
            return "timed out"
        if self.returncode < 0:
            try:
                return f"killed by {signal.Signals(-self.returncode).name}"
            except ValueError:
                return f"killed by signal {-self.returncode}"
        return None

    @classmethod
    def of_command(cls, name: str, cmd: list[str], env: dict, timeout: float | None = None) -> "Run":
        """Runs `cmd` with exactly `env` (the caller scrubs it: wrapper_test.environment())."""
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, timeout=timeout)
            return cls(name, p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))
        except subprocess.TimeoutExpired as e:
            return cls(name, -9, (e.stdout or b"").decode(errors="replace"),
                       (e.stderr or b"").decode(errors="replace"), timed_out=True)

    @property
    def last_begun(self):
        """The last case whose `begin` marker was written (where a crash hit)."""
        return next(reversed(self.segments), None) if self.segments else None


