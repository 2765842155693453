#!/usr/bin/env python3
"""Checks that a mini MIOpen library exports exactly the expected C symbols.

Expected = every function declared with MIOPEN_EXPORT in the public header
(beta ones included: the library is built with MIOPEN_BETA_API) plus the
names given with --hidden. Actual = `nm -D --defined-only` of the library,
minus the absolute version-node symbols. Also checks the SONAME and that
every export carries the expected version node.

--extra-expected / --drop-expected deliberately corrupt the expectation;
CTest uses them (with WILL_FAIL) to show the check can fail.
"""
import argparse
import re
import subprocess
import sys


def header_functions(path):
    text = open(path, encoding="utf-8").read()
    # Comments out of the way first, so names inside comments do not count.
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    names = set()
    for m in re.finditer(r"\bMIOPEN_EXPORT\b([^;{]*?)\b(miopen\w+)\s*\(", text):
        names.add(m.group(2))
    return names


def exported(lib, node):
    out = subprocess.run(["nm", "-D", "--defined-only", "--with-symbol-versions", lib],
                         check=True, capture_output=True, text=True).stdout
    names, bad_version = set(), []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, sym = parts[1], parts[2]
        if kind == "A":  # version node definitions
            continue
        name, _, version = sym.partition("@")
        version = version.lstrip("@")
        names.add(name)
        if version != node:
            bad_version.append(sym)
    return names, bad_version


def soname(lib):
    out = subprocess.run(["objdump", "-p", lib], check=True, capture_output=True, text=True).stdout
    m = re.search(r"SONAME\s+(\S+)", out)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--library", required=True)
    ap.add_argument("--header", required=True)
    ap.add_argument("--hidden", nargs="*", default=[])
    ap.add_argument("--soname", default="libMIOpen.so.1")
    ap.add_argument("--version-node", default="MIOPEN_HIP_1")
    ap.add_argument("--extra-expected", nargs="*", default=[])
    ap.add_argument("--drop-expected", nargs="*", default=[])
    a = ap.parse_args()

    expected = header_functions(a.header) | set(a.hidden) | set(a.extra_expected)
    expected -= set(a.drop_expected)
    actual, bad_version = exported(a.library, a.version_node)

    ok = True
    missing = sorted(expected - actual)
    extra = sorted(actual - expected)
    if missing:
        ok = False
        print("declared but not exported:", *missing, sep="\n  ")
    if extra:
        ok = False
        print("exported but not expected:", *extra, sep="\n  ")
    if bad_version:
        ok = False
        print(f"exports without version node {a.version_node}:", *bad_version, sep="\n  ")
    so = soname(a.library)
    if so != a.soname:
        ok = False
        print(f"SONAME is {so}, expected {a.soname}")
    print(f"{len(expected)} expected, {len(actual)} exported: {'OK' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
