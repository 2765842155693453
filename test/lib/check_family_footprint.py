#!/usr/bin/env python3
"""scripts/family-footprint.py against a synthetic repository whose answer is
known, then on this checkout with the build's facts.

  check_family_footprint.py [--unplanted]

The synthetic repository (a temporary git tree with two made-up groups,
`stencil` in module `sten` and `shuffle` in module `shuf`, and facts naming
them) holds one file per rule: a generic Rust file that names a shuffle family
(the design bug the tool exists to show) must be reported; the group's own
folders (in the Rust crates, the test beds' op folders, its test folder), a file git does not track, a binary file and `stenography` (not the
word `sten`) must not. Every reported file, its area and the counts table are
compared with the expectation.

--unplanted: the negative control: the synthetic repository lacks the generic
file that names a family, so the expectation's report of it must fail.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import wrapper_test as wt  # noqa: E402

TOOL = os.path.join(HERE, "..", "..", "scripts", "family-footprint.py")

FACTS = {  # two made-up groups, so this file names no real one
    "schema": wt.SCHEMA,
    "groups": [
        {"name": "stencil", "module": "sten", "families": ["sten_fwd"]},
        {"name": "shuffle", "module": "shuf", "families": ["shuf_fwd", "shuf_bwd"]},
    ],
    "forwarding_table": [
        {"entry_point": "miopenStencilForward", "family": "sten_fwd"},
        {"entry_point": "miopenShuffleForward", "family": "shuf_fwd"},
        {"entry_point": "miopenShuffleBackward", "family": "shuf_bwd"},
    ],
}

PLANTED = "rust/wrapper/src/runtime.rs"
REGISTRIES = {"rust/forwarding-core/src/groups.rs", "rust/forwarding-core/src/lib.rs", "rust/wrapper/src/forward/mod.rs"}

# Tracked files: path -> text.
TRACKED = {
    # Its own folders: never reported.
    "rust/forwarding-core/src/shuf/group.rs": 'GroupRow::new("shuffle", "shuf") // shuf_fwd',
    "rust/wrapper/src/forward/shuf/entry.rs": "pub fn miopenShuffleForward() {}",
    "test/mini-miopen/ops/shuf/src/shuffle_api.cpp": "miopenStatus_t miopenShuffleForward();",
    "test/mini-hipdnn/ops/shuf/descriptors.cpp": "// the shuffle operation descriptor",
    "test/groups/shuffle/faults.cpp": 'const faults::Registration registered("shuffle", shuffle);',
    # The registries.
    "rust/forwarding-core/src/groups.rs": "&crate::sten::group::ROW, &crate::shuf::group::ROW",
    "rust/wrapper/src/forward/mod.rs": "pub mod sten; pub mod shuf;",
    # A generic file that names a family: the design bug.
    PLANTED: "if family == Family::named(\"shuf_fwd\") { /* special case */ }",
    # Another group's folder, the op layer, a test bed, a checker, a doc, a script.
    "rust/wrapper/src/forward/sten/handlers.rs": "// unlike miopenShuffleBackward, ...",
    "test/groups/stencil/CMakeLists.txt": "# as the shuffle group's tests do",
    "rust/forwarding-core/src/ops/sten/problem.rs": "pub struct StenParams;",
    "test/mini-miopen/src/shuffle_api.cpp": "miopenStatus_t miopenShuffleForward_impl();",
    "test/mini-miopen/src/stenography.cpp": "// stenography, stencils, stent: no group named here",
    "test/consumers/differential/shuffle.json": '{"group": "shuffle"}',
    "docs/forwarding.md": "## The shuffle family\n`MIOPEN_DISABLE_HIPDNN_FOR=shuf_bwd`",
    "scripts/test.sh": "cmake -DMIOPEN_HIPDNN_FORWARD_GROUPS='stencil;none'",
    "bench/run.sh": "# 2D Sten2d timings",
}
BINARY = {"fuzz/corpus/shuf/seed": b"shuf_fwd\0\1\2"}
UNTRACKED = {"rust/forwarding-core/src/scratch.rs": "shuf_fwd"}

EXPECTED = {
    "stencil": {
        "generic Rust": ["rust/forwarding-core/src/groups.rs", "rust/wrapper/src/forward/mod.rs"],
        "op layer": ["rust/forwarding-core/src/ops/sten/problem.rs"],
        "scripts/bench/cmake": ["bench/run.sh", "scripts/test.sh"],
    },
    "shuffle": {
        "other groups' folders": ["rust/wrapper/src/forward/sten/handlers.rs", "test/groups/stencil/CMakeLists.txt"],
        "generic Rust": ["rust/forwarding-core/src/groups.rs", PLANTED, "rust/wrapper/src/forward/mod.rs"],
        "test beds": ["test/mini-miopen/src/shuffle_api.cpp"],
        "consumers/checkers": ["test/consumers/differential/shuffle.json"],
        "docs": ["docs/forwarding.md"],
    },
}
# The counts table's rows the expectation gives (area | stencil | shuffle).
EXPECTED_ROWS = [
    "| generic Rust | 2 (2 registries) | 3 (2 registries) |",
    "| **total** | **5** | **8** |",
]


def write(root: str, files: dict, binary: bool = False) -> None:
    for path, content in files.items():
        full = os.path.join(root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb" if binary else "w") as f:
            f.write(content)


def run_tool(*args: str) -> str:
    p = subprocess.run([sys.executable, "-B", TOOL, *args], capture_output=True, text=True)
    if p.returncode != 0:
        wt.fail(f"family-footprint.py {' '.join(args)} exited {p.returncode}: {p.stderr[-2000:]}")
    return p.stdout


def synthetic(unplanted: bool) -> list[str]:
    with tempfile.TemporaryDirectory() as root:
        subprocess.run(["git", "init", "-q", root], check=True)
        tracked = {p: t for p, t in TRACKED.items() if not (unplanted and p == PLANTED)}
        write(root, tracked)
        write(root, BINARY, binary=True)
        subprocess.run(["git", "-C", root, "add", "--", *tracked, *BINARY], check=True)
        write(root, UNTRACKED)
        facts = os.path.join(root, "facts.json")  # untracked too
        with open(facts, "w") as f:
            json.dump(FACTS, f)
        report = json.loads(run_tool("--repo", root, "--facts", facts, "--json"))
        table = run_tool("--repo", root, "--facts", facts, "--markdown").splitlines()
    problems = []
    for group, want in EXPECTED.items():
        got = {area: sorted(files) for area, files in report[group]["areas"].items()}
        for area in sorted(set(want) | set(got)):
            for path in want.get(area, []):
                if path not in got.get(area, []):
                    problems.append(f"{group}: {path} not reported under {area} (reported: {got.get(area, [])})")
            for path in got.get(area, []):
                if path not in want.get(area, []):
                    problems.append(f"{group}: {path} reported under {area}, which names no such group there")
    problems += [f"--markdown lacks the row {row}" for row in EXPECTED_ROWS if row not in table]
    return problems


def this_checkout() -> list[str]:
    """The tool on this checkout with the build's facts: every group is named
    by the three registries, and no file of its own folders is reported."""
    checkout = os.path.join(HERE, "..", "..")
    if not (os.environ.get(wt.FACTS_VAR) or os.environ.get(wt.TOOL_VAR)):
        return []  # outside CTest: the synthetic repository alone
    if subprocess.run(["git", "-C", checkout, "rev-parse"], capture_output=True).returncode != 0:
        print("family_footprint: the sources are no git checkout; the synthetic repository alone")
        return []
    report = json.loads(run_tool("--json"))
    problems = []
    for group in wt.facts()["groups"]:
        areas = report[group["name"]]["areas"]
        generic = areas.get("generic Rust", {})
        registries = sorted(REGISTRIES & set(generic))
        if registries != sorted(REGISTRIES):
            problems.append(f"{group['name']}: named by the registries {registries}, not all of {sorted(REGISTRIES)}")
        own = (f"rust/forwarding-core/src/{group['module']}/", f"rust/wrapper/src/forward/{group['module']}/")
        problems += [f"{group['name']}: its own file {p} reported" for files in areas.values() for p in files
                     if p.startswith(own)]
    return problems


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--unplanted", action="store_true", help="negative control: leave the planted file out")
    a = ap.parse_args()
    return wt.checked("family_footprint", lambda: synthetic(a.unplanted) + this_checkout())


if __name__ == "__main__":
    sys.exit(main())
