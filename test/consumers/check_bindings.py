#!/usr/bin/env python3
"""Runs a binary under LD_DEBUG=bindings (set by the caller, with
LD_DEBUG_OUTPUT=<log-prefix>) and checks where its miopen* references bound:
every one must be an _impl name bound in libMIOpen_private.so, at least one
must exist, and nothing may bind into the public libMIOpen.so."""
import argparse
import glob
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import environment, verdict  # noqa: E402

# The dynamic loader's LD_DEBUG=bindings line (glibc's text).
LINE = re.compile(r"binding file (\S+) \[\d+\] to (\S+) \[\d+\]: normal symbol `([^'`]+)'")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--log-prefix", required=True)
    a = ap.parse_args()
    for old in glob.glob(a.log_prefix + ".*"):
        os.remove(old)
    rc = subprocess.run([a.binary], env=environment()).returncode
    if rc != 0:
        return verdict("check_bindings", [f"{a.binary} exited {rc}"])
    lines = []
    for f in glob.glob(a.log_prefix + ".*"):
        with open(f, errors="replace") as fh:
            lines += fh.read().splitlines()
    impl, bad = [], []
    for l in lines:
        m = LINE.search(l)
        if not m:
            continue
        src, dst, sym = m.groups()
        name = os.path.basename(dst)
        if name.startswith("libMIOpen.so"):
            bad.append(f"{sym} bound into the public wrapper {dst}")
        if sym.startswith("miopen") and os.path.basename(src) == os.path.basename(a.binary):
            if not sym.endswith("_impl"):
                bad.append(f"public name {sym} referenced by the consumer")
            elif not name.startswith("libMIOpen_private.so"):
                bad.append(f"{sym} bound to {dst}, not libMIOpen_private.so")
            else:
                impl.append(sym)
    if not impl:
        bad.append("no _impl binding observed (is LD_DEBUG=bindings set?)")
    print(f"{len(set(impl))} _impl symbols bound in libMIOpen_private.so, {len(bad)} problems")
    return verdict("check_bindings", bad)


if __name__ == "__main__":
    sys.exit(main())
