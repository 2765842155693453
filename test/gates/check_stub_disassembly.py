#!/usr/bin/env python3
"""Every exported function of libMIOpen.so must be the pass-through fast path:
    cmpb $0x1,<state byte>(%rip) ; jne <routed slow path> ; jmp *<name>_impl@GOT(%rip)
and every survivor a single `jmp *<name>_impl@GOT(%rip)`. Reads objdump's
disassembly of the library. `--expect-fail` inverts the verdict (the test suite
runs it on the pre-wrapper baseline, whose functions have no such shape, to
prove the check can fail)."""
import argparse
import json
import re
import subprocess
import sys


def exported_functions(lib):
    out = subprocess.run(["nm", "-D", "--defined-only", lib], capture_output=True, text=True, check=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in ("T", "t"):
            names.add(parts[2].split("@")[0])
    return names


def disassembly(lib):
    out = subprocess.run(["objdump", "-d", "--no-show-raw-insn", lib], capture_output=True, text=True,
                         check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"^[0-9a-f]+ <([^>]+)>:$", line)
        if m:
            cur = m.group(1).split("@")[0]
            funcs.setdefault(cur, [])
            continue
        m = re.match(r"^\s+[0-9a-f]+:\s+(.*)$", line)
        if m and cur is not None:
            funcs[cur].append(m.group(1).strip())
    return funcs


def shape_problem(name, insns):
    if not insns:
        return "no code"
    impl = f"<{name}_impl@"
    if insns[0].startswith("jmp") and "*" in insns[0] and impl in insns[0]:
        return None  # survivor: signature-free tail jump
    if len(insns) < 3:
        return f"too short: {insns}"
    a, b, c = insns[:3]
    if not re.match(r"cmpb\s+\$0x1,0x[0-9a-f]+\(%rip\)", a):
        return f"first instruction is not the state-byte compare: {a!r}"
    if not b.startswith("jne"):
        return f"second instruction is not jne: {b!r}"
    if not (c.startswith("jmp") and "*" in c and impl in c):
        return f"third instruction is not a tail jump to {name}_impl: {c!r}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("library")
    ap.add_argument("--expect-fail", action="store_true")
    ap.add_argument("--manifest", help="the generator's manifest.json: its `additions` (the wrapper's own "
                    "API, not stubs) are the only exports exempt from the check")
    a = ap.parse_args()
    names = exported_functions(a.library)
    if a.manifest:
        additions = set(json.load(open(a.manifest)).get("additions", []))
        missing = additions - set(names)
        if missing:
            print(f"wrapper additions not exported: {sorted(missing)}")
            return 1
        names = [n for n in names if n not in additions]
    code = disassembly(a.library)
    bad = {n: shape_problem(n, code.get(n, [])) for n in sorted(names)}
    bad = {n: p for n, p in bad.items() if p}
    for n, p in list(bad.items())[:10]:
        print(f"{n}: {p}")
    print(f"{len(names)} exported functions, {len(names) - len(bad)} with the 3-instruction "
          f"pass-through (or survivor tail jump), {len(bad)} without")
    failed = bool(bad) or not names
    if a.expect_fail:
        print("expected to fail:", "it did" if failed else "it did NOT")
        return 0 if failed else 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
