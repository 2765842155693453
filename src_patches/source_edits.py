#!/usr/bin/env python3
"""src_patches source edits: C++ edits a MIOpen tree needs, kept as DATA.

Each `source-edits/*.json` names one file of a MIOpen tree (`file`, relative
to the tree root) and a list of edits by anchor. Kinds:

  insert_before_line  `text` (lines) goes before the one line that starts
                      with `anchor`; done when `done_if` is in the file
  wrap_define_body    every `#define <macro> <body>` line becomes
                      `#define <macro> <wrap>(<body>)`; at least one needed
  replace_in_macro    inside the definitions of `<macro>` (the `#define`
                      line and its backslash continuations) the one
                      occurrence of `from` becomes `to`; done when `to` is
                      there. `optional`: a tree without `from` reports absent

An anchor that does not match fails with exit status 3 and nothing is
written. A second run finds every edit done and changes nothing.

Run on a MIOpen tree after `miopen-wrap adopt` (which does not read these
files yet), and by the test bed's split on its renamed copy:

  source_edits.py --src-root <tree>/src [--check]
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

EDITS_DIR = Path(__file__).resolve().parent / "source-edits"


class SourceAnchorMissing(Exception):
    pass


@dataclass
class SourceEditResult:
    """One edit's outcome."""
    id: str
    file: str
    changes: int = 0
    status: str = ""
    detail: str = ""


@dataclass
class EditedFile:
    rel: str
    path: Path
    text: str
    new: str
    results: list = field(default_factory=list)


def load_specs(edits_dir: Path = EDITS_DIR) -> list[dict]:
    return [json.loads(p.read_text()) for p in sorted(edits_dir.glob("*.json"))]


def macro_spans(lines: list[str], macro: str) -> list[range]:
    """Line ranges of every definition of `macro` (function-like or not)."""
    spans, i = [], 0
    while i < len(lines):
        head = lines[i].lstrip()
        if head.startswith(f"#define {macro}(") or head.startswith(f"#define {macro} ") \
                or head.rstrip() == f"#define {macro}":
            j = i
            while lines[j].rstrip().endswith("\\") and j + 1 < len(lines):
                j += 1
            spans.append(range(i, j + 1))
            i = j + 1
        else:
            i += 1
    return spans


def insert_before_line(lines: list[str], edit: dict, rel: str) -> int:
    if any(edit["done_if"] in l for l in lines):
        return 0
    at = [i for i, l in enumerate(lines) if l.startswith(edit["anchor"])]
    if len(at) != 1:
        raise SourceAnchorMissing(f"{rel}: {len(at)} lines start with `{edit['anchor']}` (need exactly 1)")
    lines[at[0]:at[0]] = [t + "\n" for t in edit["text"]]
    return 1


def wrap_define_body(lines: list[str], edit: dict, rel: str) -> int:
    head, wrap = f"#define {edit['macro']} ", edit["wrap"]
    found = [i for i, l in enumerate(lines) if l.startswith(head)]
    if not found:
        raise SourceAnchorMissing(f"{rel}: no `{head.strip()} ...` line")
    changed = 0
    for i in found:
        body = lines[i][len(head):].rstrip("\n")
        if body.startswith(wrap + "("):
            continue
        lines[i] = f"{head}{wrap}({body})\n"
        changed += 1
    return changed


def replace_in_macro(lines: list[str], edit: dict, rel: str) -> int | None:
    """Changes made, or None when an optional anchor is absent."""
    spans = macro_spans(lines, edit["macro"])
    inside = [i for s in spans for i in s]
    if any(edit["to"] in lines[i] for i in inside):
        return 0
    hits = [i for i in inside if edit["from"] in lines[i]]
    if not hits and edit.get("optional"):
        return None
    if len(hits) != 1 or lines[hits[0]].count(edit["from"]) != 1:
        raise SourceAnchorMissing(
            f"{rel}: `{edit['from']}` occurs {len(hits)} time(s) in #define {edit['macro']} (need exactly 1)")
    lines[hits[0]] = lines[hits[0]].replace(edit["from"], edit["to"])
    return 1


KINDS = {"insert_before_line": insert_before_line, "wrap_define_body": wrap_define_body,
         "replace_in_macro": replace_in_macro}


def edit_file(root: Path, spec: dict, rel: str) -> EditedFile:
    path = root / rel
    if not path.is_file():
        raise SourceAnchorMissing(f"anchor file {rel} not found")
    text = path.read_text()
    lines = text.splitlines(keepends=True)
    out = EditedFile(rel, path, text, text)
    for edit in spec["edits"]:
        n = KINDS[edit["kind"]](lines, edit, rel)
        r = SourceEditResult(edit["id"], rel, changes=n or 0)
        if n is None:
            r.status, r.detail = "absent", f"no `{edit['from']}` in #define {edit['macro']} in this tree"
        out.results.append(r)
    out.new = "".join(lines)
    return out


def apply_all(root: Path, src_root: Path | None = None) -> list[EditedFile]:
    """Edit every spec's file (in memory). With `src_root`, a spec file
    `src/<rest>` is looked up as `<src_root>/<rest>`."""
    files = []
    for spec in load_specs():
        rel = spec["file"]
        if src_root is not None:
            if not rel.startswith("src/"):
                continue
            files.append(edit_file(src_root, spec, rel[len("src/"):]))
        else:
            files.append(edit_file(root, spec, rel))
    return files


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--src-root", type=Path, required=True, help="the tree's src/ directory")
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if an edit is due")
    args = ap.parse_args(argv)
    try:
        files = apply_all(args.src_root, src_root=args.src_root)
    except SourceAnchorMissing as e:
        print(f"source_edits: FAILED: {e}; nothing was changed", file=sys.stderr)
        return 3
    due = 0
    for f in files:
        for r in f.results:
            due += r.changes
            print(f"  [{r.id:<19}] {r.file}: {r.status or ('due' if r.changes and args.check else 'applied' if r.changes else 'already')}")
        if f.new != f.text and not args.check:
            f.path.write_text(f.new)
    return 1 if (args.check and due) else 0


if __name__ == "__main__":
    sys.exit(main())
