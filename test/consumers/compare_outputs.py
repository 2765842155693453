#!/usr/bin/env python3
"""The consumer suite in three configurations.

Runs one consumer binary (which writes its fp32 outputs to a file) against
the pre-wrapper baseline (LD_LIBRARY_PATH), the wrapper with forwarding
disabled, and the wrapper with forwarding enabled against the hipDNN backend
test bed. Requires: baseline and disabled outputs bit-identical; enabled
outputs equal to disabled within the fp32 tolerance; the routing trace of
the enabled run shows the convolution calls executed by hipDNN (and the
baseline run loaded no wrapper).
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import PREFIX, forwarding_set, run as run_scrubbed, traces  # noqa: E402


def run(consumer, out, env):
    p = run_scrubbed([consumer, out], env)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        sys.exit(f"consumer failed (exit {p.returncode}) with {env}:\n{p.stderr}")
    return p.stderr


def floats(path):
    data = open(path, "rb").read()
    return struct.unpack(f"{len(data) // 4}f", data)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--baseline-dir", required=True)
    ap.add_argument("--out-dir", required=True)
    ap.add_argument("--backend-dir", default=os.environ.get("HIPDNN_BACKEND_LIBRARY_PATH"),
                    help="HIPDNN_BACKEND_LIBRARY_PATH of the enabled run (default: the environment's)")
    ap.add_argument("--expect-forwarded", action="append", default=[],
                    help="entry point whose enabled-run trace must say -> hipDNN")
    ap.add_argument("--corrupt", choices=["disabled", "enabled"],
                    help="negative test: perturb that run's output; the comparison must fail")
    a = ap.parse_args()
    os.makedirs(a.out_dir, exist_ok=True)
    path = {r: os.path.join(a.out_dir, f"{r}.bin") for r in ("baseline", "disabled", "enabled")}

    err = run(a.consumer, path["baseline"],
              {"LD_LIBRARY_PATH": a.baseline_dir, "MIOPEN_HIPDNN_FORWARDING": "enabled"})
    if PREFIX in err:
        sys.exit("the baseline run loaded the wrapper (LD_LIBRARY_PATH not honoured?)")
    run(a.consumer, path["disabled"], {"MIOPEN_HIPDNN_FORWARDING": "disabled"})
    enabled = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5"}
    if a.backend_dir:
        enabled["HIPDNN_BACKEND_LIBRARY_PATH"] = a.backend_dir
    routes = traces(run(a.consumer, path["enabled"], enabled))
    outside = sorted(set(a.expect_forwarded) - set(forwarding_set()))
    if outside:
        sys.exit(f"--expect-forwarded names entry points outside the forwarding table: {outside}")
    for ep in a.expect_forwarded:
        got = [f"{t.target} ({t.reason})" for t in routes if t.entry == ep]
        if not got or not all(t.forwarded for t in routes if t.entry == ep):
            sys.exit(f"{ep} was not forwarded in the enabled run: {got or 'no trace line'}")
    forwarded = sum(1 for t in routes if t.forwarded)
    print(f"enabled run: {forwarded} calls executed by hipDNN; {len(routes) - forwarded} on MIOpen Private")

    if a.corrupt:
        vals = list(floats(path[a.corrupt]))
        vals[len(vals) // 2] += 0.25
        open(path[a.corrupt], "wb").write(struct.pack(f"{len(vals)}f", *vals))

    base = open(path["baseline"], "rb").read()
    if len(base) < 1000:
        sys.exit(f"baseline output is only {len(base)} bytes; the consumer did not run its ops")
    if open(path["disabled"], "rb").read() != base:
        sys.exit("outputs differ: baseline vs disabled (pass-through must be bit-identical)")
    ref, got = floats(path["disabled"]), floats(path["enabled"])
    if len(ref) != len(got):
        sys.exit(f"outputs differ in size: disabled {len(ref)} vs enabled {len(got)} values")
    # fp32: hipDNN's engines may accumulate in another order than MIOpen's
    # kernels; allow a few ulps of the magnitudes involved.
    worst = max((abs(r - g) / max(1.0, abs(r)) for r, g in zip(ref, got)), default=0.0)
    if worst > 1e-5:
        sys.exit(f"outputs differ: disabled vs enabled, worst relative difference {worst:.3g} > 1e-5")
    print(f"baseline == disabled bit for bit ({len(base)} bytes); enabled within 1e-5 "
          f"(worst {worst:.3g}) with forwarding on")


if __name__ == "__main__":
    main()
