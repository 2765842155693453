#!/usr/bin/env python3
"""Regression test of the forwarded steady state, on instructions
(callgrind), not time: what the wrapper adds to a forwarded call over the
hipDNN backend alone doing the same per-call work (bench/forwarded's
`backend` mode), for miopenConvolutionForward (--max-conv) and Find 2.0's
miopenRunSolution (--max-find2), on the test bed's engine that returns at
once. Exit 77 (CTest: skipped) when valgrind is missing."""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--hipdnn-dir", required=True, help="the mini hipDNN's build dir (lib/, test_plugins/)")
    ap.add_argument("--max-conv", type=float, required=True)
    ap.add_argument("--max-find2", type=float, required=True)
    ap.add_argument("--calls", type=int, default=2_000)
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("SKIP: valgrind not found (scripts/setup-deps.sh installs it)")
        sys.exit(77)
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(a.hipdnn_dir, "lib"),
           "HIPDNN_PLUGIN_DIR": os.path.join(a.hipdnn_dir, "test_plugins"),
           "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": "MINI_TEST_DUMMY_ENGINE"}
    fw = os.path.join(a.bench_dir, "forwarded")
    with tempfile.TemporaryDirectory(prefix="user-db-") as db:  # MIOpen's user db, out of $HOME
        env["MIOPEN_USER_DB_PATH"] = db
        per_call = {m: measure.instructions_per_call(fw, env, n=a.calls, args=[m], tail=["1"])
                    for m in ("backend", "wrapper", "find2")}
    added = {"conv": per_call["wrapper"] - per_call["backend"], "find2": per_call["find2"] - per_call["backend"]}
    print(f"instructions per call: backend alone {per_call['backend']:.1f}, miopenConvolutionForward "
          f"{per_call['wrapper']:.1f} (+{added['conv']:.1f}), miopenRunSolution {per_call['find2']:.1f} "
          f"(+{added['find2']:.1f})")
    over = [f"{name} adds {added[name]:+.1f} (allowed {limit:+g})"
            for name, limit in (("conv", a.max_conv), ("find2", a.max_find2)) if added[name] > limit + 0.5]
    if over:
        sys.exit("FAIL: instruction regression: " + "; ".join(over))
    print(f"PASS: conv {added['conv']:+.1f} (allowed {a.max_conv:+g}), find2 {added['find2']:+.1f} "
          f"(allowed {a.max_find2:+g})")


if __name__ == "__main__":
    main()
