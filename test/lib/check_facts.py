#!/usr/bin/env python3
"""The tests' expectations and the docs, checked against the code's facts
(`miopen-wrap facts`, test/lib/wrapper_test.py).

The tests keep what must be true; this says where that and the code part:

  texts      the documented texts test/lib/wrapper_test.py parses with (the
             stderr prefix, the routing-trace line, its targets, the decline
             prefix) are what the code writes;
  coverage   every MIOpen variable the code audits has a CTest that sets it
             to a value the code acts on, expecting what the code does
             (--environment-case, the list test/forwarding/CMakeLists.txt
             makes one CTest of each, and each group's
             test/groups/<group>/environment_cases.txt, which the group's own
             tree runs), and no such CTest names a variable the code does not
             audit or expects another treatment;
  scrub      every variable the test beds and MIOpenDriver read is in the
             tests' scrub list (test/lib/test-environment.json) or kept on
             purpose, and every test-bed variable listed is read.

The docs' tables are checked against the same facts by test/lib/check_docs.py.

Negative controls: --corrupt-fact KEY (a text fact changed), --forget NAME
(a variable dropped from the scrub list); dropping a case from
--environment-case leaves its variable uncovered. Each must fail.
"""
from __future__ import annotations

import argparse
import glob
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrapper_test as wt  # noqa: E402

READS = re.compile(r"\b(?:\w+::)*(?:getenv|envFlag|envString|value|numeric|IsEnabled)\(\s*\"([A-Z][A-Z0-9_]*)\"")
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".c")


def check_texts(f: dict) -> list[str]:
    want = {"stderr_prefix": wt.PREFIX, "trace_line": wt.TRACE_LINE, "decline_prefix": wt.DECLINED,
            "route_targets": {"hipdnn": wt.HIPDNN, "private": wt.PRIVATE}}
    return [f"texts: the tests expect {key} {value!r}, the code has {f.get(key)!r}"
            for key, value in want.items() if f.get(key) != value]


def audited_entries(f: dict, name: str) -> list[dict]:
    """Every audited entry `name` falls under: one name may have an entry in
    two rows, each for values of its own (a fused solver's switch)."""
    return [a for a in f["audited_variables"]
            if name == a["name"] or (a["prefix"] and name.startswith(a["name"]))]


def entry_key(a: dict) -> tuple:
    return a["name"], a.get("scope")


# What an environment CTest expects of a variable the code treats so
# (a variable kept under forwarding prints nothing and routes as unset).
# A plan switch leaves the plain calls alone (its plans: the group's fusion routing test).
EXPECTED = {"decline": "decline", "warn": "warn", "kept": "none", "decline_plan": "none"}


def group_cases() -> list[str]:
    """The cases of every group's test/groups/<group>/environment_cases.txt
    (`EXPECT:NAME=VALUE` a line; `#` starts a comment): its folder's
    CMakeLists.txt makes one CTest of each in a build whose forwarding set
    has the group."""
    cases = []
    for path in sorted(glob.glob(os.path.join(wt.REPO, "test", "groups", "*", "environment_cases.txt"))):
        with open(path) as fh:
            # A line's first word is the case; the rest is the group's (its consumer's options).
            cases += [l.split("#")[0].split()[0] for l in fh if l.split("#")[0].strip()]
    return cases


def check_coverage(f: dict, cases: list[str]) -> list[str]:
    problems, covered = [], set()
    for case in cases:
        expect, _, assignment = case.partition(":")
        name = assignment.partition("=")[0]
        entries = audited_entries(f, name)
        if not entries:
            problems.append(f"coverage: CTest case {case!r} names {name}, which the code does not audit")
            continue
        # The case covers the entry whose treatment it expects (a name's
        # entries in two rows differ in treatment).
        a = next((e for e in entries if EXPECTED[e["treatment"]] == expect), None)
        if a is not None:
            covered.add(entry_key(a))
        elif expect in ("decline", "warn"):
            problems.append(f"coverage: CTest case {case!r} expects {expect}, the code's treatment of "
                            f"{name} is {' / '.join(e['treatment'] for e in entries)}")
    for a in f["audited_variables"]:
        if entry_key(a) not in covered:
            problems.append(f"coverage: the code's audit says {a['treatment']} for {a['name']}"
                            f"{'*' if a['prefix'] else ''}, but no CTest sets it expecting that")
    return problems


def test_bed_reads() -> dict[str, str]:
    """Variable -> the first test-bed or driver source that reads it."""
    found = {}
    for root in wt.test_environment()["test_beds"]["sources"]:
        for dirpath, _dirs, files in os.walk(os.path.join(wt.REPO, root)):
            for name in sorted(files):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(dirpath, name)
                with open(path, errors="replace") as fh:
                    for var in READS.findall(fh.read()):
                        found.setdefault(var, os.path.relpath(path, wt.REPO))
    return found


def check_scrub(forget: list[str]) -> list[str]:
    env = wt.test_environment()
    listed = set(env["test_beds"]["names"]) - set(forget)
    names, prefixes = wt.scrub_list()
    names = names - set(forget)
    reads = test_bed_reads()
    problems = []
    for var, where in sorted(reads.items()):
        if var in env["kept"]:
            continue
        if var not in listed:
            problems.append(f"scrub: {where} reads {var}, which test-environment.json's test_beds does not list")
        elif var not in names and not var.startswith(prefixes):
            problems.append(f"scrub: {var} is not in the scrub list")
    for var in sorted(listed - set(reads)):
        problems.append(f"scrub: test-environment.json lists {var} for the test beds, which none of them reads")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--environment-case", action="append", default=[], metavar="EXPECT:NAME=VALUE",
                    help="one CTest of test/forwarding/check_environment.py (decline, warn or none)")
    ap.add_argument("--corrupt-fact", choices=["stderr_prefix", "trace_line", "decline_prefix"],
                    help="negative control: change this fact before comparing")
    ap.add_argument("--forget", action="append", default=[], metavar="NAME",
                    help="negative control: leave this variable out of the scrub list")
    ap.add_argument("--without-group-cases", action="store_true",
                    help="negative control: leave out the groups' environment_cases.txt")
    a = ap.parse_args()
    if not a.without_group_cases:
        a.environment_case += group_cases()
    f = dict(wt.facts())
    if a.corrupt_fact:
        f[a.corrupt_fact] = f[a.corrupt_fact] + " (changed)"
    problems = check_texts(f) + check_coverage(f, a.environment_case) + check_scrub(a.forget)
    if not problems:
        print(f"texts, {len(f['audited_variables'])} audited variables covered by {len(a.environment_case)} "
              f"CTest cases, {len(test_bed_reads())} test-bed variables scrubbed or kept")
    return wt.verdict("check_facts", problems)


if __name__ == "__main__":
    sys.exit(main())
