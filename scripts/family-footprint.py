#!/usr/bin/env python3
"""Where each op family group is named outside its own folders.

For every family group of the code's facts (`miopen-wrap facts`: each group's
name, module and families, and the forwarding table), lists every git-tracked
file outside the group's own folders (OWN_FOLDERS) that names the group, by area, and
counts them. docs/architecture.md "What a family touches" is its --markdown
output with the reasons beside it; docs/playbook/onboarding-an-op-family.md
uses the counts as the budget of a new family.

  family-footprint.py [--repo DIR] [--facts FILE] [--markdown | --json] [--terms]

The facts: --facts FILE (a build's test-facts.json), else the tests' own
MIOPEN_WRAP_FACTS / MIOPEN_WRAP_BIN (test/lib/wrapper_test.py), else
`cargo run -p miopen-wrap -- facts` in the repository (slow the first time).
"""
from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "lib"))
import wrapper_test as wt  # noqa: E402

# A group's own folders: its data row's crate folder and its runtime folder
# (rust/forwarding-core/src/groups.rs and rust/wrapper/src/forward/mod.rs list
# `<module>::group::ROW` / `RUNTIME` from them), its op's folders in the two
# test beds (test/mini-miopen/ops/<module>/, test/mini-hipdnn/ops/<module>/:
# registered through the test beds' tables) and its test folder
# (test/groups/<name>/: its fault sequence, its programs and checked tests).
OWN_FOLDERS = ("rust/forwarding-core/src/{module}/", "rust/wrapper/src/forward/{module}/",
               "test/mini-miopen/ops/{module}/", "test/mini-hipdnn/ops/{module}/", "test/groups/{name}/")

# The generic files that list the groups by design: the registries.
REGISTRIES = {"rust/forwarding-core/src/groups.rs", "rust/forwarding-core/src/lib.rs", "rust/wrapper/src/forward/mod.rs"}

OTHER_GROUPS = "other groups' folders"
OP_LAYER = "op layer"
OP_LAYER_FOLDERS = ("rust/forwarding-core/src/ops/", "rust/wrapper/src/forward/ops/")

# The other areas, by path prefix; the first that matches a file is its area.
AREAS = [
    ("generic Rust", ("rust/forwarding-core/", "rust/wrapper/", "rust/hipdnn-backend/", "rust/hipdnn-abi/")),
    ("generator", ("rust/miopen-wrap/", "src_patches/")),
    ("test beds", ("test/mini-miopen/", "test/mini-hipdnn/")),
    ("consumers/checkers", ("test/", "rust/fuzz-targets/", "fuzz/")),
    ("docs", ("docs/", "README.md")),
    ("scripts/bench/cmake", ("",)),  # everything else: scripts, bench, cmake, driver, include, top-level files
]
AREA_ORDER = [OTHER_GROUPS, OP_LAYER] + [name for name, _ in AREAS]


def search_terms(group: dict, facts: dict) -> list[str]:
    """What names a group: the code's own names for it, all from the facts.

    - its name (MIOPEN_DISABLE_HIPDNN_FOR, the forwarding set, its manifest);
    - its module (its folders, `forward::<module>`, `ops/<module>` of its op);
    - its families' names (the trace, MIOPEN_DISABLE_HIPDNN_FOR);
    - its forwarded entry points (MIOpen's names for its calls).

    Prose spellings the code does not use ("Find 2.0", "batch norm") are not
    searched, so a file that names a group only so is not counted.
    """
    families = set(group["families"])
    entry_points = [r["entry_point"] for r in facts["forwarding_table"] if r["family"] in families]
    return sorted({group["name"], group["module"], *families, *entry_points})


# A word boundary inside code: a non-alphanumeric character, a camel-case
# step (`miopen|Stencil`, `Sten|Params`, `HIPDNN|Backend`) or a letter
# before a digit (`sten|2d`). So a group `stencil` of module `sten` is found
# in `ops/sten`, `sten_fwd`, `StenParams` and `sten2d`, never in
# `stenography` or `stencils`.
def is_edge(text: bytes, i: int) -> bool:
    before, after = text[i - 1:i], text[i:i + 1]
    if not (before.isalnum() and after.isalnum()):
        return True
    return ((before.islower() or before.isdigit()) and after.isupper()) or (before.isalpha() and after.isdigit()) \
        or (before.isupper() and after.isupper() and text[i + 1:i + 2].islower())


class Terms:
    """A group's search terms, found as whole words in any case."""

    def __init__(self, terms: list[str]):
        words = b"|".join(re.escape(t.lower().encode()) for t in sorted(terms, key=len, reverse=True))
        self.pattern = re.compile(words)  # run on the lowered text: a case-blind search 15x faster

    def found(self, text: bytes, lowered: bytes) -> list[str]:
        """The spellings of the terms the text holds."""
        spans = (m.span() for m in self.pattern.finditer(lowered))
        return sorted({text[s:e].decode() for s, e in spans if is_edge(text, s) and is_edge(text, e)})


def tracked_files(repo: str) -> list[str]:
    out = subprocess.run(["git", "-C", repo, "ls-files", "-z"], capture_output=True, check=True).stdout
    return [p for p in out.decode().split("\0") if p]


def read_bytes(repo: str, path: str) -> bytes | None:
    """The file's bytes; None for a binary file (a fuzz seed, an image) or one
    the work tree lacks."""
    try:
        with open(os.path.join(repo, path), "rb") as f:
            data = f.read()
    except OSError:
        return None
    return None if b"\0" in data else data


def area_of(path: str, module: str, folders: dict[str, tuple[str, ...]]) -> str | None:
    """The area of a file outside the group's own folders; None inside them."""
    if path.startswith(folders[module]):
        return None
    if any(path.startswith(f) for m, fs in folders.items() if m != module for f in fs):
        return OTHER_GROUPS
    if path.startswith(OP_LAYER_FOLDERS):
        return OP_LAYER
    return next(name for name, prefixes in AREAS if path.startswith(prefixes))


def footprint(repo: str, facts: dict) -> dict:
    """{group name: {"module", "terms", "areas": {area: {path: [spellings found]}}}}."""
    groups = facts["groups"]
    folders = {g["module"]: tuple(f.format(module=g["module"], name=g["name"]) for f in OWN_FOLDERS) for g in groups}
    terms = {g["name"]: search_terms(g, facts) for g in groups}
    finders = {name: Terms(t) for name, t in terms.items()}
    result = {g["name"]: {"module": g["module"], "terms": terms[g["name"]], "areas": defaultdict(dict)} for g in groups}
    for path in tracked_files(repo):
        areas = {g["name"]: area_of(path, g["module"], folders) for g in groups}
        if all(a is None for a in areas.values()):
            continue
        text = read_bytes(repo, path)
        if text is None:
            continue
        lowered = text.lower()
        for name, area in areas.items():
            found = finders[name].found(text, lowered) if area else []
            if found:
                result[name]["areas"][area][path] = found
    return result


def load_facts(path: str | None, repo: str) -> dict:
    if path:
        os.environ[wt.FACTS_VAR] = path
    elif not (os.environ.get(wt.FACTS_VAR) or os.environ.get(wt.TOOL_VAR)):
        out = tempfile.NamedTemporaryFile(suffix=".json", delete=False).name
        print("family-footprint: no facts named; asking `cargo run -p miopen-wrap -- facts`", file=sys.stderr)
        try:
            subprocess.run(["cargo", "run", "--quiet", "-p", "miopen-wrap", "--", "facts", "--output", out],
                           cwd=repo, check=True)
            os.environ[wt.FACTS_VAR] = out
            return wt.facts()
        finally:
            os.unlink(out)
    return wt.facts()


def generic_rust_split(files: dict) -> str:
    registries = sum(p in REGISTRIES for p in files)
    return f"{len(files)} ({registries} registries)"


def print_text(fp: dict, show_terms: bool) -> None:
    for name, g in fp.items():
        total = sum(len(files) for files in g["areas"].values())
        print(f"{name} (module {g['module']}): {total} files outside its folders")
        if show_terms:
            print(f"  terms: {', '.join(g['terms'])}")
        for area in AREA_ORDER:
            files = g["areas"].get(area, {})
            if files:
                count = generic_rust_split(files) if area == "generic Rust" else len(files)
                print(f"  {area}: {count}")
                for path, found in sorted(files.items()):
                    print(f"    {path}" + (f"  [{', '.join(found)}]" if show_terms else ""))


def print_markdown(fp: dict) -> None:
    names = list(fp)
    print("| area | " + " | ".join(names) + " |")
    print("| --- |" + " ---: |" * len(names))
    for area in AREA_ORDER:
        cells = [fp[n]["areas"].get(area, {}) for n in names]
        shown = [generic_rust_split(c) if area == "generic Rust" else str(len(c)) for c in cells]
        print(f"| {area} | " + " | ".join(shown) + " |")
    totals = [str(sum(len(f) for f in fp[n]["areas"].values())) for n in names]
    print("| **total** | " + " | ".join(f"**{t}**" for t in totals) + " |")
    print()
    print("| group | area | files |")
    print("| --- | --- | --- |")
    for n in names:
        for area in AREA_ORDER:
            files = fp[n]["areas"].get(area, {})
            if files:
                print(f"| {n} | {area} | {folded(files)} |")


def folded(paths) -> str:
    """The paths, those of one folder as `folder/{a, b}`."""
    by_folder = defaultdict(list)
    for p in sorted(paths):
        folder, name = os.path.split(p)
        by_folder[folder].append(name)
    parts = []
    for folder, names in by_folder.items():
        prefix = f"{folder}/" if folder else ""
        parts.append(f"`{prefix}{names[0]}`" if len(names) == 1 else f"`{prefix}{{{', '.join(names)}}}`")
    return ", ".join(parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."),
                    help="the checkout to search (default: this script's)")
    ap.add_argument("--facts", help="the code's facts (a build's test-facts.json)")
    out = ap.add_mutually_exclusive_group()
    out.add_argument("--markdown", action="store_true", help="the tables of docs/architecture.md")
    out.add_argument("--json", action="store_true", help="every group's files by area, with the terms found")
    ap.add_argument("--terms", action="store_true", help="show each group's search terms and what each file matched")
    a = ap.parse_args()
    fp = footprint(a.repo, load_facts(a.facts, a.repo))
    if a.json:
        json.dump(fp, sys.stdout, indent=1, sort_keys=True)
        print()
    elif a.markdown:
        print_markdown(fp)
    else:
        print_text(fp, a.terms)
    return 0


if __name__ == "__main__":
    sys.exit(main())
