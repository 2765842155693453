#!/usr/bin/env python3
"""What wheel bundlers do to the pair (PyTorch ships libMIOpen-<hash>.so):
copy both libraries and a consumer, give the libraries hashed names with
`patchelf --set-soname`, point the wrapper (`--replace-needed`) and the
consumer at the new names, and require that (1) the consumer still runs and
produces the same bytes as against the untouched install, and (2) the gates
that key on DT_NEEDED/SONAME still pass on the renamed pair."""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import environment  # noqa: E402


def sh(*cmd, env=None):
    print("+", " ".join(cmd))
    return subprocess.run(cmd, env=env, check=False).returncode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lib-dir", required=True, help="installed lib dir holding libMIOpen.so.1 and libMIOpen_private.so.1")
    ap.add_argument("--consumer", required=True, help="smoke_consumer built against the install")
    ap.add_argument("--miopen-wrap", required=True)
    ap.add_argument("--baseline", required=True, help="pre-wrapper libMIOpen.so.1")
    a = ap.parse_args()

    work = tempfile.mkdtemp(prefix="renamed-pair-")
    wrapper = os.path.join(work, "libMIOpen-3f2a9c1e.so")
    private = os.path.join(work, "libMIOpen_private-7b41d0aa.so")
    consumer = os.path.join(work, "consumer")
    shutil.copy(os.path.realpath(os.path.join(a.lib_dir, "libMIOpen.so.1")), wrapper)
    shutil.copy(os.path.realpath(os.path.join(a.lib_dir, "libMIOpen_private.so.1")), private)
    shutil.copy(a.consumer, consumer)
    # A bundler bundles what the private library needs from the install too
    # (the test bed's HIP stand-in, as libamdhip64 on ROCm), next to it.
    needed = subprocess.run(["patchelf", "--print-needed", private], capture_output=True, text=True).stdout.split()
    for n in needed:
        if os.path.exists(os.path.join(a.lib_dir, n)):
            shutil.copy(os.path.realpath(os.path.join(a.lib_dir, n)), os.path.join(work, n))
    steps = [
        ["patchelf", "--set-soname", os.path.basename(private), private],
        ["patchelf", "--set-soname", os.path.basename(wrapper), wrapper],
        ["patchelf", "--set-rpath", "$ORIGIN", private],
        ["patchelf", "--replace-needed", "libMIOpen_private.so.1", os.path.basename(private), wrapper],
        ["patchelf", "--set-rpath", "$ORIGIN", wrapper],
        ["patchelf", "--replace-needed", "libMIOpen.so.1", os.path.basename(wrapper), consumer],
        ["patchelf", "--set-rpath", "$ORIGIN", consumer],
    ]
    for s in steps:
        if sh(*s) != 0:
            return 1

    env = environment({"LD_LIBRARY_PATH": None})
    ref = os.path.join(work, "ref.bin")
    got = os.path.join(work, "renamed.bin")
    if sh(a.consumer, ref, env=env) != 0 or sh(consumer, got, env=env) != 0:
        print("FAIL: the consumer does not run against the renamed pair")
        return 1
    if open(ref, "rb").read() != open(got, "rb").read():
        print("FAIL: outputs differ between the installed and the renamed pair")
        return 1
    print("renamed pair: consumer output identical to the installed pair")

    # The renamed pair must really be what the renamed consumer loaded.
    out = subprocess.run(["ldd", consumer], capture_output=True, text=True).stdout
    if os.path.basename(wrapper) not in out or os.path.basename(private) not in out:
        print("FAIL: renamed consumer did not resolve the renamed pair:\n" + out)
        return 1

    rc = sh(a.miopen_wrap, "check", "all", "--wrapper", wrapper, "--private", private,
            "--baseline", a.baseline, "--skip", "abi")
    shutil.rmtree(work, ignore_errors=True)
    return rc


if __name__ == "__main__":
    sys.exit(main())
