#!/usr/bin/env python3
"""Compare MIOpen's own log (stderr with MIOPEN_ENABLE_LOGGING=1 and a log
level) of the public-API consumer run on the pre-wrapper library and on the
adopted wrapper + private pair.

What MIOpen writes must not change with the adoption: function names stay
public (the logger edit), source line numbers stay (the rename's `#line`),
and every message is the same. What may differ, and how it is handled:

* the wrapper's own lines (`MIOpen(hipDNN wrapper): ...`, its routing trace
  at log level 5 and above) are dropped from the adopted log and counted,
  and the consumer's own (`consumer: ...`, its RSS) from every log;
* addresses (hex numbers of 6 digits or more) are masked everywhere: no two
  processes need agree on them, even two runs of the same library;
* the two sides' directories (install prefixes, trees, user-db dirs) are
  replaced by the names given with --replace;
* a line that differs between two runs of the *pre-wrapper* library
  (times, uninitialised fields), and every `[Measure]` line (a time, which
  two runs may happen to share), is compared by its shape: every number
  replaced by `#`;
* MIOpen's `[GetLibPath]` line names the file that holds MIOpen's code: the
  private library after the adoption (MIOpen finds its db and kernel
  directories next to it, and both libraries are installed side by side).

Exit status 0 when the logs agree, 1 when they do not, 2 on bad input.
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import WRAPPER  # noqa: E402

CONSUMER_PREFIX = "consumer:"
ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")
TIMING_TAG = "[Measure]"
NUMBER = re.compile(r"0x[0-9a-fA-F]+|[-+]?\d+(?:\.\d+)?(?:e[-+]?\d+)?")
LIB_PATH_TAG = "[GetLibPath]"


def shape(line: str) -> str:
    return NUMBER.sub("#", line)


def normalise(lines: list[str], replacements: list[tuple[str, str]]) -> list[str]:
    out = []
    for line in lines:
        line = ADDRESS.sub("0x<address>", line)
        for old, new in replacements:
            line = line.replace(old, new)
        out.append(line)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--baseline", type=Path, required=True, help="log of a run on the pre-wrapper library")
    ap.add_argument("--baseline-again", type=Path, required=True, help="log of a second such run")
    ap.add_argument("--adopted", type=Path, required=True, help="log of the run on the adopted pair")
    ap.add_argument("--replace", action="append", default=[], metavar="OLD=NEW",
                    help="text replaced in every log before comparing (longest OLD first)")
    a = ap.parse_args()
    try:
        pairs = [tuple(r.split("=", 1)) for r in a.replace]
        if any(len(p) != 2 or not p[0] for p in pairs):
            raise ValueError("--replace takes OLD=NEW with a non-empty OLD")
        replacements = sorted(pairs, key=lambda p: -len(p[0]))
        base, again, adopted_all = (f.read_text(errors="replace").splitlines()
                                    for f in (a.baseline, a.baseline_again, a.adopted))
    except (OSError, ValueError) as e:
        print(f"compare_logs: {e}", file=sys.stderr)
        return 2

    adopted = [line for line in adopted_all if not line.startswith(WRAPPER)]
    wrapper_lines = len(adopted_all) - len(adopted)
    base, again, adopted = ([line for line in x if not line.startswith(CONSUMER_PREFIX)]
                            for x in (base, again, adopted))
    base, again, adopted = (normalise(x, replacements) for x in (base, again, adopted))
    problems = []
    if any(line.startswith(WRAPPER) for line in base):
        problems.append("the pre-wrapper log has wrapper lines: is it the pre-wrapper library?")
    if len(base) != len(again):
        problems.append(f"two runs of the pre-wrapper library logged {len(base)} and {len(again)} lines: "
                        "the log is not deterministic enough to compare")
    if len(base) != len(adopted):
        problems.append(f"the pre-wrapper run logged {len(base)} lines, the adopted run {len(adopted)} "
                        f"(after dropping {wrapper_lines} wrapper lines)")
    exact = by_shape = lib_path = 0
    for i, (b, d) in enumerate(zip(base, adopted), start=1):
        varies = TIMING_TAG in b or (i <= len(again) and again[i - 1] != b)
        if b == d:
            exact += 1
        elif varies and shape(b) == shape(d):
            by_shape += 1
        elif LIB_PATH_TAG in b and b.replace("libMIOpen.so", "libMIOpen_private.so") == d:
            lib_path += 1
        else:
            problems.append(f"line {i} differs:\n  pre-wrapper: {b}\n  adopted:     {d}")
        if len(problems) > 20:
            problems.append("... (stopped after 20 differences)")
            break

    print(f"compare_logs: {len(base)} MIOpen log lines: {exact} identical, {by_shape} identical in shape "
          f"(numbers that differ between two pre-wrapper runs, or times), "
          f"{lib_path} [GetLibPath] naming the private library; {wrapper_lines} wrapper lines dropped")
    for p in problems:
        print(f"compare_logs: {p}")
    if not base:
        print("compare_logs: the pre-wrapper log is empty: was logging on?")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
