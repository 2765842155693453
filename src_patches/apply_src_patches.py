#!/usr/bin/env python3
"""src_patches: adopt the MIOpen -> hipDNN forwarding wrapper in MIOpen's CMake.

Edits a MIOpen source tree by ANCHORS (a known command, found by name and
target argument with a CMake-aware reader), never by line diffs:

  library-target      src/CMakeLists.txt  add_library(MIOpen ...) becomes
                      MIOpen_private (output libMIOpen_private.so), and every
                      command that configures that target follows it
  export-header       src/CMakeLists.txt  the export-header call keeps writing
                      <miopen/export.h> with the MIOPEN_EXPORT macros for the
                      renamed target (miopen_wrap_private_export_header)
  wrap-include        src/CMakeLists.txt  before the library target: include our
                      CMake helper, which imports the Rust crates (Corrosion)
                      and cmake/MIOpenHipdnnWrapper.cmake from this repository
  wrapper-target      src/CMakeLists.txt  before the install of the library:
                      miopen_wrap_adopt_wrapper() creates the wrapper target
                      MIOpen (libMIOpen.so, same SONAME) via
                      miopen_wrap_add_wrapper()
  version-script      src/CMakeLists.txt  the existing lib.def version script
                      stays on MIOpen_private (it exports the _impl names);
                      the wrapper links with the generated libMIOpen.map only
  install-export      src/CMakeLists.txt  install + export sets carry both
                      MIOpen and MIOpen_private; miopen_impl.h is installed under
                      include/miopen_private (private include subtree)
  plugins-proxy       src/CMakeLists.txt  (if present) MIOpen_with_plugins keeps
                      linking MIOpen, i.e. the wrapper -- verified, not changed
  ck-plugins          src/ck_impl/**      (if present) the CK grouped-conv plugins
                      link MIOpen_private instead of MIOpen (RFC 0001 §4.10)
  internal-tests      test/**, speedtests (if present) executables that link
                      MIOpen or MIOpen_with_plugins also link MIOpen_private,
                      for the internal C++ symbols the wrapper does not export
  driver-transitional driver/             (if present) MIOpenDriver also links
                      MIOpen_private until the driver's layering refactor
                      (RFC 0001 §7) makes it a public-API-only consumer

C++ source edits (source_edits.py), kept as data in source-edits/*.json:

  logger-*            src/include/miopen/logger.hpp  MIOpen's logger names a
                      renamed entry point miopenFoo, not miopenFoo_impl

Idempotent: a second run finds every edit in place and changes nothing.
A tree that does not match fails, naming the missing anchor, with exit 3.
Each edited file is re-read by the CMake-aware reader and, when a `cmake`
executable is available, by CMake's own parser (cmake -P on the file's text
wrapped in a never-taken if()).

Usage: apply_src_patches.py TREE [--check] [--wrap-source-dir DIR] [--json OUT]
  --check   change nothing; exit 1 if any edit is still due
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import cmake_lexer as L  # noqa: E402
import source_edits  # noqa: E402

PUB = "MIOpen"
PRIV = "MIOpen_private"
PROXY = "MIOpen_with_plugins"
MARK = "miopen-wrap:"  # prefix of every comment line this script inserts

# Commands whose FIRST argument is the target they configure.
TARGET_FIRST = {
    "target_link_libraries", "target_include_directories", "target_compile_definitions",
    "target_compile_options", "target_compile_features", "target_sources",
    "target_link_options", "target_link_directories", "target_precompile_headers",
    "add_dependencies", "rocm_set_soversion", "clang_tidy_check",
    "target_internal_library", "generate_export_header",
}


class AnchorMissing(Exception):
    pass


@dataclass
class Edit:
    start: int
    end: int
    text: str


@dataclass
class Step:
    id: str
    file: str
    changes: int = 0
    status: str = ""  # applied | already | absent | verified
    detail: str = ""


@dataclass
class FileWork:
    path: Path
    rel: str
    text: str
    cmds: list = field(default_factory=list)
    edits: list = field(default_factory=list)

    @classmethod
    def load(cls, root: Path, rel: str) -> "FileWork":
        p = root / rel
        text = p.read_text()
        try:
            cmds = L.parse(text)
        except L.CMakeSyntaxError as e:
            raise AnchorMissing(f"{rel} does not read as CMake before patching: {e}")
        return cls(p, rel, text, cmds)

    def result(self) -> str:
        out = self.text
        for e in sorted(self.edits, key=lambda e: (e.start, e.end), reverse=True):
            out = out[:e.start] + e.text + out[e.end:]
        return out


def has_marker(text: str, tag: str) -> bool:
    return f"# {MARK} {tag}" in text


def insert_before_statement(fw: FileWork, index: int, block: str) -> None:
    """Insert `block` (lines) on its own lines before the top-level statement
    that contains fw.cmds[index]."""
    top = L.enclosing_top_level(fw.cmds, index)
    at = L.line_start(fw.text, top.start)
    fw.edits.append(Edit(at, at, block + "\n"))


def find(fw: FileWork, pred) -> list[int]:
    return [i for i, c in enumerate(fw.cmds) if pred(c)]


def first_arg(c: L.Command) -> str | None:
    return c.args[0].value if c.args else None


# --------------------------------------------------------------------------
# src/CMakeLists.txt
# --------------------------------------------------------------------------
def patch_src(root: Path, wrap_dir: str, steps: list[Step]) -> FileWork:
    rel = "src/CMakeLists.txt"
    if not (root / rel).is_file():
        raise AnchorMissing(f"anchor file {rel} not found")
    fw = FileWork.load(root, rel)
    cmds = fw.cmds

    # -- library-target: add_library(MIOpen ...) -> add_library(MIOpen_private ...)
    st = Step("library-target", rel)
    libs = find(fw, lambda c: c.lname == "add_library" and first_arg(c) in (PUB, PRIV))
    if not libs:
        raise AnchorMissing(f"anchor `add_library({PUB} ...)` not found in {rel}")
    for i in libs:
        a = cmds[i].args[0]
        if a.value == PUB:
            fw.edits.append(Edit(a.start, a.end, PRIV))
            st.changes += 1
    # every command configuring the library follows it
    for c in cmds:
        ln = c.lname
        if ln in TARGET_FIRST and first_arg(c) == PUB:
            fw.edits.append(Edit(c.args[0].start, c.args[0].end, PRIV))
            st.changes += 1
        elif ln == "set_target_properties":
            for a in c.args:
                if a.value.upper() == "PROPERTIES":
                    break
                if a.value == PUB:
                    fw.edits.append(Edit(a.start, a.end, PRIV))
                    st.changes += 1
        elif ln == "set_property" and c.args and c.args[0].value == "TARGET":
            for a in c.args[1:]:
                if a.value in ("PROPERTY", "APPEND", "APPEND_STRING"):
                    break
                if a.value == PUB:
                    fw.edits.append(Edit(a.start, a.end, PRIV))
                    st.changes += 1
        elif ln == "get_target_property" and len(c.args) > 1 and c.args[1].value == PUB:
            fw.edits.append(Edit(c.args[1].start, c.args[1].end, PRIV))
            st.changes += 1
    st.detail = f"{len(libs)} add_library site(s); target commands follow the rename"
    steps.append(st)

    # -- export-header
    st = Step("export-header", rel)
    eh = find(fw, lambda c: c.lname == "miopen_generate_export_header" and first_arg(c) == PUB)
    done = find(fw, lambda c: c.lname == "miopen_wrap_private_export_header")
    if eh:
        for i in eh:
            c = cmds[i]
            fw.edits.append(Edit(c.start, c.end, f"miopen_wrap_private_export_header({PRIV})"))
            st.changes += 1
    elif not done:
        raise AnchorMissing(f"anchor `miopen_generate_export_header({PUB})` not found in {rel}")
    st.detail = "<miopen/export.h> keeps MIOPEN_EXPORT (BASE_NAME MIOpen, DEFINE_SYMBOL MIOpen_EXPORTS)"
    steps.append(st)

    # -- wrap-include: before the top-level statement holding the first add_library
    st = Step("wrap-include", rel)
    set_line = f'set(MIOPEN_WRAP_SOURCE_DIR "{wrap_dir}" CACHE PATH "miopen-hipdnn wrapper repository (tools, Rust crates, CMake module)")'
    inc_line = "include(${MIOPEN_WRAP_SOURCE_DIR}/src_patches/cmake/MIOpenWrapAdopt.cmake)"
    if has_marker(fw.text, "include"):
        # keep the recorded repository path current
        for c in cmds:
            if c.lname == "set" and first_arg(c) == "MIOPEN_WRAP_SOURCE_DIR" and len(c.args) > 1:
                if c.args[1].value != wrap_dir:
                    fw.edits.append(Edit(c.start, c.end, set_line))
                    st.changes += 1
    else:
        block = (f"# {MARK} include -- MIOpen -> hipDNN forwarding wrapper (RFC 0001): the Rust\n"
                 f"# {MARK} crates, cmake/MIOpenHipdnnWrapper.cmake and the adoption helpers.\n"
                 f"{set_line}\n{inc_line}")
        insert_before_statement(fw, min(libs), block)
        st.changes += 1
    steps.append(st)

    # -- wrapper-target: before the install of the library
    st = Step("wrapper-target", rel)
    inst = find(fw, lambda c: c.lname in ("rocm_install_targets", "install")
                and "TARGETS" in c.values() and (PUB in c.values() or PRIV in c.values()))
    if not inst:
        raise AnchorMissing(f"anchor `rocm_install_targets(TARGETS {PUB} ...)` not found in {rel}")
    if not find(fw, lambda c: c.lname == "miopen_wrap_adopt_wrapper"):
        block = (f"# {MARK} wrapper -- libMIOpen.so becomes the thin Rust wrapper (same SONAME,\n"
                 f"# {MARK} same exports); it forwards to libMIOpen_private.so (RFC 0001 §4.3).\n"
                 f"miopen_wrap_adopt_wrapper(WRAPPER_TARGET {PUB} PRIVATE_TARGET {PRIV})")
        insert_before_statement(fw, inst[0], block)
        st.changes += 1
    steps.append(st)

    # -- version-script: lib.def stays on MIOpen_private
    st = Step("version-script", rel)
    wr = find(fw, lambda c: c.lname == "file" and c.args and c.args[0].value == "WRITE"
              and len(c.args) > 1 and c.args[1].value.endswith("lib.def"))
    if not wr:
        raise AnchorMissing(f"anchor `file(WRITE .../lib.def ...)` (version script) not found in {rel}")
    users = find(fw, lambda c: c.lname in ("target_link_libraries", "target_link_options")
                 and any("--version-script" in a.value and "lib.def" in a.value for a in c.args))
    if not users:
        raise AnchorMissing(f"anchor `target_link_libraries({PUB} ... --version-script=...lib.def)` not found in {rel}")
    for i in users:
        if first_arg(cmds[i]) not in (PUB, PRIV):  # PUB is renamed above
            raise AnchorMissing(f"version script lib.def is linked into `{first_arg(cmds[i])}`, "
                                f"expected `{PUB}` (line {cmds[i].line} of {rel})")
    st.status = "verified"
    st.detail = "lib.def (miopen* incl. *_impl, miopen::*) on MIOpen_private only; wrapper gets libMIOpen.map"
    steps.append(st)

    # -- install-export: TARGETS MIOpen -> TARGETS MIOpen MIOpen_private
    st = Step("install-export", rel)
    exp = find(fw, lambda c: c.lname == "rocm_export_targets" and "TARGETS" in c.values())
    if not exp:
        raise AnchorMissing(f"anchor `rocm_export_targets(TARGETS {PUB} ...)` not found in {rel}")
    for i in (inst[0], exp[0]):
        c = cmds[i]
        vals = c.values()
        t = vals.index("TARGETS")
        group = []
        for a in c.args[t + 1:]:
            if a.value.isupper() and a.value.replace("_", "").isalpha():
                break  # next keyword
            group.append(a)
        names = [a.value for a in group]
        if PUB not in names:
            raise AnchorMissing(f"anchor `{c.name}(TARGETS {PUB} ...)` not found in {rel} "
                                f"(line {c.line} lists {names})")
        if PRIV not in names:
            a = next(a for a in group if a.value == PUB)
            fw.edits.append(Edit(a.end, a.end, f" {PRIV}"))
            st.changes += 1
    st.detail = "install and export carry MIOpen (wrapper) and MIOpen_private; miopen_impl.h -> include/miopen_private/miopen"
    steps.append(st)

    # -- plugins-proxy: verified, unchanged
    st = Step("plugins-proxy", rel)
    proxy = find(fw, lambda c: c.lname == "add_library" and first_arg(c) == PROXY)
    if not proxy:
        st.status = "absent"
        st.detail = f"no {PROXY} target in this tree"
    else:
        links = find(fw, lambda c: c.lname == "target_link_libraries" and first_arg(c) == PROXY)
        items = [a.value for i in links for a in cmds[i].args[1:]]
        if PUB not in items:
            raise AnchorMissing(f"anchor `target_link_libraries({PROXY} INTERFACE {PUB})` not found in {rel}")
        st.status = "verified"
        st.detail = f"{PROXY} links {PUB} (now the wrapper), unchanged"
    steps.append(st)

    # -- ck-plugins defined in this file (targets whose name mentions CK)
    retarget_link_items(fw, lambda tgt: "CK" in tgt and tgt not in (PUB, PRIV, PROXY),
                        steps, "ck-plugins", replace=True)
    return fw


# --------------------------------------------------------------------------
# link-item edits in other CMake files
# --------------------------------------------------------------------------
def retarget_link_items(fw: FileWork, target_pred, steps: list[Step], step_id: str,
                        replace: bool) -> Step:
    """In target_link_libraries(<T> ...) with target_pred(T): replace=True turns
    the item MIOpen into MIOpen_private; replace=False adds MIOpen_private right
    after the MIOpen / MIOpen_with_plugins item (once per call)."""
    st = Step(step_id, fw.rel)
    seen = 0
    for c in fw.cmds:
        if c.lname != "target_link_libraries" or not c.args:
            continue
        tgt = c.args[0].value
        if not target_pred(tgt):
            continue
        items = c.args[1:]
        vals = [a.value for a in items]
        if replace:
            if PUB in vals or PRIV in vals:
                seen += 1
            for a in items:
                if a.value == PUB:
                    fw.edits.append(Edit(a.start, a.end, PRIV))
                    st.changes += 1
        else:
            anchor = next((a for a in items if a.value in (PUB, PROXY)), None)
            if anchor is None:
                continue
            seen += 1
            if PRIV not in vals:
                fw.edits.append(Edit(anchor.end, anchor.end, f" {PRIV}"))
                st.changes += 1
    st.detail = f"{seen} link call(s)"
    if seen or st.changes:
        steps.append(st)
    return st


def cmake_files_under(root: Path, rel_dir: str) -> list[str]:
    base = root / rel_dir
    if not base.is_dir():
        return []
    out = []
    for dirpath, dirnames, filenames in os.walk(base):  # no symlink following
        dirnames.sort()
        for f in sorted(filenames):
            if f == "CMakeLists.txt" or f.endswith(".cmake"):
                out.append(str((Path(dirpath) / f).relative_to(root)))
    return out


def patch_consumers(root: Path, steps: list[Step]) -> list[FileWork]:
    works = []

    def load_if_links(rel):
        text = (root / rel).read_text()
        if PUB not in text and PROXY not in text:
            return None
        return FileWork.load(root, rel)

    # CK grouped-conv plugins: link MIOpen_private instead of MIOpen
    ck = [r for r in cmake_files_under(root, "src") if "/ck_impl/" in "/" + r]
    n_before = len(steps)
    for rel in ck:
        fw = load_if_links(rel)
        if fw:
            retarget_link_items(fw, lambda t: t not in (PUB, PRIV, PROXY), steps, "ck-plugins", replace=True)
            works.append(fw)
    if not ck and not any(s.id == "ck-plugins" for s in steps):
        steps.append(Step("ck-plugins", "src/ck_impl", status="absent",
                          detail="no CK grouped-conv plugin CMake in this tree"))

    # internal-symbol tests and speedtests: also link MIOpen_private
    n_before = len(steps)
    for rel in cmake_files_under(root, "test") + cmake_files_under(root, "speedtests"):
        fw = load_if_links(rel)
        if fw:
            retarget_link_items(fw, lambda t: t not in (PUB, PRIV, PROXY), steps, "internal-tests", replace=False)
            works.append(fw)
    if len(steps) == n_before:
        steps.append(Step("internal-tests", "test/, speedtests/", status="absent",
                          detail="no test executables linking MIOpen in this tree"))

    # driver: transitional private link
    n_before = len(steps)
    for rel in cmake_files_under(root, "driver"):
        fw = load_if_links(rel)
        if fw:
            retarget_link_items(fw, lambda t: t == "MIOpenDriver", steps, "driver-transitional", replace=False)
            works.append(fw)
    if len(steps) == n_before:
        steps.append(Step("driver-transitional", "driver/", status="absent",
                          detail="no MIOpenDriver link in this tree"))
    return works


# --------------------------------------------------------------------------
# syntax check of the result
# --------------------------------------------------------------------------
def syntax_check(rel: str, text: str) -> str:
    try:
        L.parse(text)
    except L.CMakeSyntaxError as e:
        raise SystemExit(f"src_patches: BUG: edited {rel} no longer reads as CMake: {e}")
    cmake = shutil.which("cmake")
    if not cmake:
        return "lexer"
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "parse_only.cmake"
        # CMake reads the whole file before running any of it; the body of a
        # never-taken if() is parsed and block-matched but not executed.
        p.write_text("if(FALSE)\n" + text + "\nendif()\n")
        r = subprocess.run([cmake, "-P", str(p)], capture_output=True, text=True)
        if r.returncode != 0:
            raise SystemExit(f"src_patches: BUG: CMake does not parse edited {rel}:\n{r.stderr}")
    return "lexer+cmake"


def apply_source_edits(sources, steps: list[Step], check: bool, checked: list[str]) -> int:
    """The C++ edits of source-edits/*.json (source_edits.py); returns the
    number of files changed."""
    changed = 0
    for f in sources:
        steps.extend(Step(r.id, r.file, r.changes, r.status, r.detail) for r in f.results)
        if f.new != f.text:
            changed += 1
            checked.append(f"{f.rel} (anchors)")
            if not check:
                f.path.write_text(f.new)
    return changed


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tree", type=Path)
    ap.add_argument("--check", action="store_true", help="change nothing; exit 1 if an edit is due")
    ap.add_argument("--wrap-source-dir", default=str(Path(__file__).resolve().parent.parent),
                    help="this repository, recorded as MIOPEN_WRAP_SOURCE_DIR's default")
    ap.add_argument("--json", type=Path, help="write a JSON summary here")
    args = ap.parse_args(argv)
    root = args.tree.resolve()
    steps: list[Step] = []
    try:
        works = [patch_src(root, args.wrap_source_dir, steps)]
        works += patch_consumers(root, steps)
        sources = source_edits.apply_all(root)
    except (AnchorMissing, source_edits.SourceAnchorMissing) as e:
        print(f"src_patches: FAILED: {e}", file=sys.stderr)
        print(f"src_patches: the tree at {root} does not match; nothing was changed", file=sys.stderr)
        return 3

    total = 0
    checked = []
    for fw in works:
        new = fw.result()
        if new != fw.text:
            total += 1
            how = syntax_check(fw.rel, new)
            checked.append(f"{fw.rel} ({how})")
            if not args.check:
                fw.path.write_text(new)
    total += apply_source_edits(sources, steps, args.check, checked)
    for s in steps:
        if not s.status:
            s.status = ("due" if args.check else "applied") if s.changes else "already"
        print(f"  [{s.id:<19}] {s.file}: {s.status}"
              + (f", {s.changes} change(s)" if s.changes else "")
              + (f" -- {s.detail}" if s.detail else ""))
    changes = sum(s.changes for s in steps)
    if changes == 0:
        print("src_patches: already applied; nothing changed")
    elif args.check:
        print(f"src_patches: {changes} change(s) due in {total} file(s)")
    else:
        print(f"src_patches: applied {changes} change(s) to {total} file(s); parse-checked: "
              + ", ".join(checked))
    if args.json:
        args.json.write_text(json.dumps({
            "tree": str(root), "changes": changes, "files_changed": total,
            "check_only": args.check,
            "steps": [s.__dict__ for s in steps]}, indent=2) + "\n")
    return 1 if (args.check and changes) else 0


if __name__ == "__main__":
    sys.exit(main())
