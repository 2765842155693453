#!/usr/bin/env python3
"""The report of scripts/real-miopen-check.sh: its steps, the gate verdicts,
the consumer comparison, the forwarded run (test/real-miopen/check_forwarded.py),
build times with compiler-cache statistics, and the ELF facts of the real pair. Writes <work>/report.md and <work>/report.json,
prints the Markdown, and exits 0 only if every step passed.

  report.py --work DIR
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def read_tsv(path: Path) -> list[list[str]]:
    if not path.is_file():
        return []
    return [line.rstrip("\n").split("\t") for line in path.read_text().splitlines() if line.strip()]


def ccache_stats(path: Path) -> dict[str, int]:
    """`ccache --print-stats` is `key<TAB>value` per line."""
    stats = {}
    for cols in read_tsv(path):
        if len(cols) == 2 and cols[1].isdigit():
            stats[cols[0]] = int(cols[1])
    return stats


def gate_verdicts(log: Path) -> list[str]:
    if not log.is_file():
        return []
    return [line for line in log.read_text().splitlines() if line.startswith(("PASS ", "FAIL "))]


def forwarded_section(f: dict) -> list[str]:
    """The enabled run on the real pair: cases, routing, driver lines, what did not run."""
    md = ["", "## Forwarding enabled (mini hipDNN backend, reference engine)", "",
          f"{f['cases']} cases: " + ", ".join(f"{n} {r}" for r, n in sorted(f["results"].items()))
          + f"; {f['forwarded_results_checked']} forwarded results checked against the consumer's reference.", "",
          f"Calls of the forwarding set: {f['calls_forwarded']} forwarded, {f['calls_declined']} declined, "
          f"{f['calls_failed']} failed in hipDNN.", "", "| entry point | decision | calls |", "|---|---|---|"]
    md += [f"| {k.rsplit(' ', 1)[0]} | {k.rsplit(' ', 1)[1]} | {n} |" for k, n in f["calls"].items()]
    if f["declined_by_reason"]:
        md += ["", "Declined, by reason:", ""]
        md += [f"* {n}x {r}" for r, n in sorted(f["declined_by_reason"].items(), key=lambda x: -x[1])]
    md += ["", f"MIOpen's driver command lines (MIOPEN_ENABLE_LOGGING_CMD): {f['driver_lines_equal']} lines equal "
           f"to real MIOpen's for the same calls with forwarding disabled ("
           + ", ".join(f"{k} {n}" for k, n in f["driver_lines_by_call"].items()) + "); MIOpen writes none for: "
           + (", ".join(f["driver_lines_not_written_by_miopen"]) or "nothing")
           + "; other loggers: " + (", ".join(f"{k} {n}" for k, n in f["other_driver_lines"].items()) or "none") + "."]
    if f["not_run"]:
        md += ["", "Not run (with the reason):", ""]
        md += [f"* case {n['case']} ({n['label']}): {n['result']} at {n['step']}: {n['why']}" for n in f["not_run"]]
    md += ["", "Exit summary:", "", "```", *f["exit_summary"], "```"]
    return md


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", type=Path, required=True)
    work = ap.parse_args().work
    steps = read_tsv(work / "steps.tsv")
    facts = {cols[0]: cols[1] for cols in read_tsv(work / "facts.tsv") if len(cols) == 2}
    elf = json.loads((work / "elf-facts.json").read_text()) if (work / "elf-facts.json").is_file() else None
    ok = bool(steps) and all(s[1] == "ok" for s in steps)

    md = ["# Real MIOpen check", "", f"Work dir: `{work}`", "", "| step | status | detail |", "|---|---|---|"]
    md += [f"| {s[0]} | {s[1]} | {s[2] if len(s) > 2 else ''} |" for s in steps]
    verdicts = gate_verdicts(work / "logs" / "gates.log")
    if verdicts:
        md += ["", "## Gates", "", "```", *verdicts, "```"]
    md += ["", "## Builds", "", "| tree | configure s | build s | install s | objects | ccache hits | misses |",
           "|---|---|---|---|---|---|---|"]
    out = {"ok": ok, "steps": steps, "facts": facts, "gates": verdicts, "elf": elf, "ccache": {}}
    for side in ("pre", "adopt"):
        cc = ccache_stats(work / "logs" / f"{side}-ccache.tsv")
        out["ccache"][side] = cc
        hits = cc.get("direct_cache_hit", 0) + cc.get("preprocessed_cache_hit", 0)
        md.append(f"| {side} | {facts.get(side + '.configure_s', '-')} | {facts.get(side + '.build_s', '-')} | "
                  f"{facts.get(side + '.install_s', '-')} | {facts.get(side + '.objects', '-')} | {hits} | "
                  f"{cc.get('cache_miss', '-')} |")
    md += ["", "## Consumer", "", "| run | exit | VmHWM kB | VmRSS kB |", "|---|---|---|---|"]
    for run in ("baseline", "dropin", "adopted"):
        md.append(f"| {run} | {facts.get(f'consumer.{run}.rc', '-')} | {facts.get(f'consumer.{run}.vmhwm_kb', '-')} | "
                  f"{facts.get(f'consumer.{run}.vmrss_kb', '-')} |")
    fwd = json.loads((work / "forwarded.json").read_text()) if (work / "forwarded.json").is_file() else None
    out["forwarded"] = fwd
    if fwd:
        md += forwarded_section(fwd)
    if elf:
        md += ["", "## Libraries", "", "| library | bytes | SONAME | DT_NEEDED | RUNPATH | version nodes | exports |",
               "|---|---|---|---|---|---|---|"]
        for name, lib in elf["libraries"].items():
            md.append(f"| {name} | {lib['size_bytes']} | {lib['soname']} | {', '.join(lib['needed'])} | "
                      f"{lib['runpath'] or ''} | {', '.join(lib['version_definitions'])} | {lib['exports']} |")
        md += ["", "Exports by kind:", ""]
        for name, lib in elf["libraries"].items():
            md.append(f"* {name}: " + ", ".join(f"{k} {v}" for k, v in lib["exports_by_kind"].items()))
        d = elf["baseline_vs_wrapper"]
        md += ["", "Baseline vs wrapper:", "",
               f"* C exports of the baseline not in the wrapper: {d['c_exports_of_baseline_not_in_wrapper']} "
               f"({', '.join(f'{k} {v}' for k, v in d['by_kind'].items())}); "
               f"{d['of_which_still_exported_by_private']} still exported by the private library",
               "* largest families: " + ", ".join(f"`{f}` {n}" for f, n in d["largest_families"]),
               "* versioned C exports not in the wrapper: " + (", ".join(d["versioned_c_not_in_wrapper"]) or "none"),
               f"* C++ exports of the baseline not in the wrapper: {d['cxx_exports_of_baseline_not_in_wrapper']}",
               "* wrapper exports not in the baseline: " + (", ".join(d["wrapper_exports_not_in_baseline"]) or "none")]
    md += ["", f"RESULT: {'PASS' if ok else 'FAIL'}"]
    text = "\n".join(md) + "\n"
    (work / "report.md").write_text(text)
    (work / "report.json").write_text(json.dumps(out, indent=2) + "\n")
    print(text)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
