#!/usr/bin/env python3
"""Facts about a real libMIOpen pair for docs/adopting-in-miopen.md:
export counts by kind, what the baseline exports that the wrapper does not
(and whether the private library still does), sizes, SONAME, DT_NEEDED,
RUNPATH and version definitions. Informational: the gates
(`miopen-wrap check`) decide pass/fail; this only describes.

  elf_facts.py --baseline PRE/libMIOpen.so.1 --wrapper W/libMIOpen.so.1 \
               --private W/libMIOpen_private.so.1 --out facts.json

Reads `readelf -W` (binutils) tables column by column.
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import subprocess
import sys


def readelf(*args: str) -> str:
    return subprocess.run(["readelf", "-W", *args], check=True, text=True, capture_output=True).stdout


def dynamic(lib: str) -> dict:
    """SONAME, NEEDED, RUNPATH from the dynamic section."""
    out = {"soname": None, "needed": [], "runpath": None}
    for line in readelf("-d", lib).splitlines():
        cols = line.split(None, 2)
        if len(cols) < 3 or not cols[1].startswith("("):
            continue
        tag, value = cols[1].strip("()"), cols[2]
        inner = value[value.find("[") + 1:value.rfind("]")] if "[" in value else value
        if tag == "SONAME":
            out["soname"] = inner
        elif tag == "NEEDED":
            out["needed"].append(inner)
        elif tag in ("RUNPATH", "RPATH"):
            out["runpath"] = inner
    return out


def version_definitions(lib: str) -> list[str]:
    names, in_defs = [], False
    for line in readelf("-V", lib).splitlines():
        if line.startswith("Version definition section"):
            in_defs = True
        elif line.startswith("Version ") and in_defs:
            in_defs = False
        elif in_defs and "Name:" in line and "Rev:" in line:
            name = line.split("Name:")[1].split()[0]
            if "Flags: BASE" not in line:
                names.append(name)
    return names


def exports(lib: str, version_nodes: list[str]) -> dict[str, dict]:
    """Defined global/weak dynamic symbols of default/protected visibility:
    name -> {type, version, default}; the marker symbols of version nodes
    are not exports."""
    syms = {}
    for line in readelf("--dyn-syms", lib).splitlines():
        cols = line.split()
        if len(cols) < 8 or not cols[0].rstrip(":").isdigit():
            continue
        _num, _value, _size, typ, bind, vis, ndx, name = cols[:8]
        if ndx == "UND" or bind not in ("GLOBAL", "WEAK", "UNIQUE") or vis not in ("DEFAULT", "PROTECTED"):
            continue
        version, default = None, True
        if "@@" in name:
            name, version = name.split("@@", 1)
        elif "@" in name:
            name, version = name.split("@", 1)
            default = False
        if ndx == "ABS" and name in version_nodes:
            continue  # the marker symbol of a version node
        syms[name] = {"type": typ, "version": version, "default": default}
    return syms


def kind(name: str, info: dict) -> str:
    if name.startswith("_Z"):
        return "c++"
    if name.endswith("_impl"):
        return "c_impl"
    if info["version"]:
        return "c_versioned_" + ("function" if info["type"] == "FUNC" else "data")
    return "c_unversioned_" + ("function" if info["type"] == "FUNC" else "data")


def family(name: str) -> str:
    """A coarse grouping for the report: the name up to its second `_`."""
    parts = name.split("_")
    return "_".join(parts[:2]) + ("_*" if len(parts) > 2 else "")


def describe(lib: str) -> dict:
    nodes = version_definitions(lib)
    syms = exports(lib, nodes)
    counts = collections.Counter(kind(n, i) for n, i in syms.items())
    return {"path": os.path.realpath(lib), "size_bytes": os.path.getsize(lib), **dynamic(lib),
            "version_definitions": nodes, "exports": len(syms),
            "exports_by_kind": dict(sorted(counts.items())), "_syms": syms}


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--wrapper", required=True)
    ap.add_argument("--private", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    libs = {k: describe(getattr(a, k)) for k in ("baseline", "wrapper", "private")}
    base, wrap, priv = (libs[k]["_syms"] for k in ("baseline", "wrapper", "private"))

    not_in_wrapper = [n for n in base if n not in wrap and not n.startswith("_Z")]
    by_kind = collections.Counter(kind(n, base[n]) for n in not_in_wrapper)
    in_private = sum(1 for n in not_in_wrapper if n in priv or n + "_impl" in priv)
    fams = collections.Counter(family(n) for n in not_in_wrapper)
    cxx_not_in_wrapper = sum(1 for n in base if n.startswith("_Z") and n not in wrap)
    added = sorted(n for n in wrap if n not in base)
    diff = {
        "c_exports_of_baseline_not_in_wrapper": len(not_in_wrapper),
        "by_kind": dict(sorted(by_kind.items())),
        "of_which_still_exported_by_private": in_private,
        "largest_families": fams.most_common(12),
        "versioned_c_not_in_wrapper": sorted(n for n in not_in_wrapper if base[n]["version"]),
        "cxx_exports_of_baseline_not_in_wrapper": cxx_not_in_wrapper,
        "wrapper_exports_not_in_baseline": added,
    }
    for v in libs.values():
        del v["_syms"]
    facts = {"libraries": libs, "baseline_vs_wrapper": diff}
    with open(a.out, "w") as f:
        json.dump(facts, f, indent=2)
    json.dump(facts, sys.stdout, indent=2)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
