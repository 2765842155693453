#!/usr/bin/env python3
"""The docs' tables that restate code facts, checked against the code's facts
(`miopen-wrap facts`, read through test/lib/wrapper_test.py).

The docs stay written for people; this says where a table and the code part,
row by row, both ways (a row missing, a row the code does not have):

  families   docs/forwarding.md's "Families (`MIOPEN_DISABLE_HIPDNN_FOR`)"
             table has one row per family, each naming its group if it names one;
  opt-out    README.md's `MIOPEN_DISABLE_HIPDNN_FOR` row names every family,
             every group and `*`, and nothing else;
  variables  README.md's variable table has one row per variable the wrapper
             reads; its MIOpen-variable table names every audited variable and
             no other; docs/environment.md's classification table has a row for
             each audited variable with the code's treatment (declined, one
             warning, or no warning), and a row for any other variable claims
             none of them;
  releases   docs/hipdnn-compatibility.md's gate table accepts each hipDNN
             release the code verifies and refuses the next one, and accepts
             nothing else; README.md names the accepted ranges;
  gates      docs/release-gates.md has one `### `gate`` section per release
             gate (and `all`), and no other.

Negative controls (each must fail): --drop-row DOC=NAME removes the table row
of DOC whose first cell names `NAME`; --add-row DOC=NAME=NEW adds a copy of
that row naming `NEW` instead.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import wrapper_test as wt  # noqa: E402

TICKED = re.compile(r"`([^`]+)`")
VERSION = re.compile(r"`(\d+)\.(\d+|x)\.")  # `M.m.`: a malformed `1.2` is not a release


class Doc:
    """One Markdown file, as lines."""

    def __init__(self, name: str, text: str):
        self.name, self.lines = name, text.split("\n")

    def table_after(self, heading: str) -> list[list[str]]:
        """The body rows (cells stripped) of the first table after the line
        that starts with `heading`."""
        start = next((i for i, l in enumerate(self.lines) if l.startswith(heading)), None)
        if start is None:
            return []
        rows, seen = [], False
        for line in self.lines[start + 1:]:
            if line.startswith("|"):
                seen = True
                cells = [c.strip() for c in line.strip().strip("|").split("|")]
                if not all(set(c) <= set("-: ") for c in cells):
                    rows.append(cells)
            elif seen or line.startswith("#"):
                break
        return rows[1:]  # the header row

    def headings(self, level: str) -> list[str]:
        return [l[len(level) + 1:] for l in self.lines if l.startswith(level + " ")]


def first_names(rows: list[list[str]]) -> list[str]:
    """The first backticked name of each row's first cell."""
    return [m.group(1) for r in rows if (m := TICKED.search(r[0]))]


def compare(where: str, what: str, found: list[str], want: list[str]) -> list[str]:
    problems = [f"{where}: {what} has no row for {n}" for n in want if n not in found]
    problems += [f"{where}: {what} has a row for {n}, which the code does not have" for n in found if n not in want]
    problems += [f"{where}: {what} has {n} twice" for n in sorted(set(found)) if found.count(n) > 1]
    return problems


def check_families(f: dict, docs: dict[str, Doc]) -> list[str]:
    rows = docs["docs/forwarding.md"].table_after("### Families (`MIOPEN_DISABLE_HIPDNN_FOR`)")
    group_of = {x["name"]: x["group"] for x in f["families"]}
    problems = compare("docs/forwarding.md", "the families table", first_names(rows), list(group_of))
    for r in rows:
        names = TICKED.findall(r[0])
        said = re.search(r"\(group `([^`]+)`", r[0])
        if names and said and group_of.get(names[0]) not in (None, said.group(1)):
            problems.append(f"docs/forwarding.md: the families table puts {names[0]} in group {said.group(1)}, "
                            f"the code in {group_of[names[0]]}")
    return problems


def table_rows(doc: Doc, header: str) -> list[list[str]]:
    """The body rows of the table whose header line is `header`."""
    start = next((i for i, l in enumerate(doc.lines) if l.startswith(header)), None)
    if start is None:
        return []
    rows = []
    for line in doc.lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def check_variables(f: dict, docs: dict[str, Doc]) -> list[str]:
    readme = docs["README.md"]
    rows = table_rows(readme, "| variable | values | effect |")
    wrapper = [v["name"] for v in f["wrapper_variables"]]
    problems = compare("README.md", "the variable table", first_names(rows), wrapper)
    opt_out = next((r for r in rows if r[0] == "`MIOPEN_DISABLE_HIPDNN_FOR`"), None)
    if opt_out:
        want = [x["name"] for x in f["families"]] + [g["name"] for g in f["groups"]] + [f["all_families"]]
        # The cell explains umbrellas by naming members again: compare names, not rows.
        named = list(dict.fromkeys(TICKED.findall(opt_out[1])))
        problems += compare("README.md", "the MIOPEN_DISABLE_HIPDNN_FOR values", named, want)

    def shown(a: dict) -> str:
        return a["name"] + ("*" if a["prefix"] else "")

    audited = {shown(a): a for a in f["audited_variables"]}
    miopen_rows = table_rows(readme, "| variable (value) | with forwarding enabled |")
    named = [n for r in miopen_rows for n in TICKED.findall(r[0]) if re.fullmatch(r"MIOPEN_[A-Z0-9_]+\*?", n)]
    problems += compare("README.md", "the MIOpen-variable table", named, list(audited))

    env_rows = table_rows(docs["docs/environment.md"], "| variable (when) | class | with forwarding enabled | why |")
    claims = {}
    for r in env_rows:
        for n in TICKED.findall(r[0]):
            if re.fullmatch(r"MIOPEN_[A-Z0-9_]+\*?", n):
                claims.setdefault(n, []).append(r[2])
    word = {"decline": "declined", "warn": "one warning", "kept": "no warning", "decline_plan": "plans declined"}
    for a in f["audited_variables"]:
        name = shown(a)
        if not any(word[a["treatment"]] in c for c in claims.get(name, [])):
            problems.append(f"docs/environment.md: the classification table has no row saying "
                            f"{word[a['treatment']]!r} for {name} (the code's treatment: {a['treatment']})")
    for name, cells in claims.items():
        if name not in audited and any(w in c for c in cells for w in word.values()):
            problems.append(f"docs/environment.md: the classification table says {name} is declined or warned "
                            f"about, which the code does not audit")
    return problems


def check_releases(f: dict, docs: dict[str, Doc]) -> list[str]:
    rows = table_rows(docs["docs/hipdnn-compatibility.md"], "| reported (examples) | outcome | evidence |")
    where = "docs/hipdnn-compatibility.md: the gate table"
    accepted = [(int(m), mi) for r in rows if r[1].startswith("accepted") for m, mi in VERSION.findall(r[0])]
    refused = [(int(m), mi) for r in rows if r[1].startswith("refused") for m, mi in VERSION.findall(r[0])]
    verified = f["hipdnn"]["verified"]
    problems = []
    for v in verified:
        if v["minor_to"] is None:
            if (v["major"], "x") not in accepted:
                problems.append(f"{where} has no accepted row `{v['major']}.x` ({v['phrase']})")
            continue
        for minor in range(v["minor_from"], v["minor_to"] + 1):
            if (v["major"], str(minor)) not in accepted:
                problems.append(f"{where} has no accepted row for {v['major']}.{minor} ({v['phrase']})")
        if (v["major"], str(v["minor_to"] + 1)) not in refused:
            problems.append(f"{where} has no refused row for {v['major']}.{v['minor_to'] + 1}, the release after "
                            f"{v['phrase']}")

    def is_verified(major: int, minor: str) -> bool:
        return any(v["major"] == major and (v["minor_to"] is None or (minor != "x" and v["minor_from"] <= int(minor)
                                                                      <= v["minor_to"])) for v in verified)

    problems += [f"{where} accepts {m}.{mi}, which the code does not verify" for m, mi in accepted
                 if not is_verified(m, mi)]
    problems += [f"{where} refuses {m}.{mi}, which the code accepts" for m, mi in refused if is_verified(m, mi)]
    readme = "\n".join(docs["README.md"].lines)
    problems += [f"README.md does not name the accepted hipDNN releases {v['phrase']}" for v in verified
                 if v["phrase"] not in readme]
    return problems


def check_gates(f: dict, docs: dict[str, Doc]) -> list[str]:
    sections = [m.group(1) for h in docs["docs/release-gates.md"].headings("###") if (m := re.match(r"`([^`]+)`", h))]
    return compare("docs/release-gates.md", "the gate sections", sections, list(f["release_gates"]) + ["all"])


CHECKS = [check_families, check_variables, check_releases, check_gates]
DOCS = ["README.md", "docs/forwarding.md", "docs/environment.md", "docs/hipdnn-compatibility.md",
        "docs/release-gates.md"]


def mutate(docs: dict[str, Doc], drop: list[str], add: list[str]) -> None:
    """The negative controls: a copy of a doc with a row dropped or added."""
    def row_of(doc: str, name: str) -> int:
        lines = docs[doc].lines
        hit = next((i for i, l in enumerate(lines) if l.startswith("|") and f"`{name}`" in l.split("|")[1]), None)
        if hit is None:
            sys.exit(f"check_docs: {doc} has no table row whose first cell names `{name}`")
        return hit

    for spec in drop:
        doc, name = spec.split("=", 1)
        del docs[doc].lines[row_of(doc, name)]
    for spec in add:
        doc, name, new = spec.split("=", 2)
        i = row_of(doc, name)
        docs[doc].lines.insert(i + 1, docs[doc].lines[i].replace(f"`{name}`", f"`{new}`", 1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--drop-row", action="append", default=[], metavar="DOC=NAME",
                    help="negative control: leave out DOC's table row that names NAME")
    ap.add_argument("--add-row", action="append", default=[], metavar="DOC=NAME=NEW",
                    help="negative control: add a copy of DOC's row for NAME that names NEW")
    a = ap.parse_args()
    docs = {}
    for name in DOCS:
        with open(os.path.join(wt.REPO, name)) as fh:
            docs[name] = Doc(name, fh.read())
    mutate(docs, a.drop_row, a.add_row)
    f = wt.facts()
    problems = [p for check in CHECKS for p in check(f, docs)]
    return wt.verdict("check_docs", problems)


if __name__ == "__main__":
    sys.exit(main())
