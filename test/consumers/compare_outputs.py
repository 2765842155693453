#!/usr/bin/env python3
"""The consumer suite in three configurations.

Runs one consumer binary (which writes its fp32 outputs to a file) against
the pre-wrapper baseline (LD_LIBRARY_PATH), the wrapper with forwarding
disabled, and the wrapper with forwarding enabled against the hipDNN backend
test bed. Requires: baseline and disabled outputs bit-identical; enabled
outputs equal to disabled within the fp32 tolerance; the same `output`
records (test/lib/protocol.py: each tensor's name and size) in every run;
the routing trace of the enabled run shows the convolution calls executed by
hipDNN (and the baseline run loaded no wrapper).
"""
import argparse
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import PREFIX, checked, fail, forwarding_set, run as run_scrubbed, traces  # noqa: E402


def run(consumer, out, env, tensors):
    """One run; its `output` records (name, size) go to `tensors`."""
    p = run_scrubbed([consumer, out], env)
    if p.returncode != 0:
        fail(f"consumer failed (exit {p.returncode}) with {env}:\n{p.stderr}")
    tensors.append([(r["name"], r["values"]) for r in records(p.stdout, "output")])
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
    return checked("compare_outputs", lambda: compare(a))


def compare(a):
    os.makedirs(a.out_dir, exist_ok=True)
    path = {r: os.path.join(a.out_dir, f"{r}.bin") for r in ("baseline", "disabled", "enabled")}

    tensors = []
    err = run(a.consumer, path["baseline"],
              {"LD_LIBRARY_PATH": a.baseline_dir, "MIOPEN_HIPDNN_FORWARDING": "enabled"}, tensors)
    if PREFIX in err:
        fail("the baseline run loaded the wrapper (LD_LIBRARY_PATH not honoured?)")
    run(a.consumer, path["disabled"], {"MIOPEN_HIPDNN_FORWARDING": "disabled"}, tensors)
    enabled = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_LOG_LEVEL": "5"}
    if a.backend_dir:
        enabled["HIPDNN_BACKEND_LIBRARY_PATH"] = a.backend_dir
    routes = traces(run(a.consumer, path["enabled"], enabled, tensors))
    if not tensors[0] or any(t != tensors[0] for t in tensors):
        fail(f"the runs wrote other tensors (name, values): {tensors}")
    for name, n in tensors[0]:
        print(f"  {name:<44s} {n:6d} values")
    outside = sorted(set(a.expect_forwarded) - set(forwarding_set()))
    if outside:
        fail(f"--expect-forwarded names entry points outside the forwarding table: {outside}")
    for ep in a.expect_forwarded:
        got = [f"{t.target} ({t.reason})" for t in routes if t.entry == ep]
        if not got or not all(t.forwarded for t in routes if t.entry == ep):
            fail(f"{ep} was not forwarded in the enabled run: {got or 'no trace line'}")
    forwarded = sum(1 for t in routes if t.forwarded)
    print(f"enabled run: {forwarded} calls executed by hipDNN; {len(routes) - forwarded} on MIOpen Private")

    if a.corrupt:
        vals = list(floats(path[a.corrupt]))
        vals[len(vals) // 2] += 0.25
        open(path[a.corrupt], "wb").write(struct.pack(f"{len(vals)}f", *vals))

    base = open(path["baseline"], "rb").read()
    if len(base) < 1000:
        fail(f"baseline output is only {len(base)} bytes; the consumer did not run its ops")
    if open(path["disabled"], "rb").read() != base:
        fail("outputs differ: baseline vs disabled (pass-through must be bit-identical)")
    ref, got = floats(path["disabled"]), floats(path["enabled"])
    if len(ref) != len(got):
        fail(f"outputs differ in size: disabled {len(ref)} vs enabled {len(got)} values")
    # fp32: hipDNN's engines may accumulate in another order than MIOpen's
    # kernels; allow a few ulps of the magnitudes involved.
    worst = max((abs(r - g) / max(1.0, abs(r)) for r, g in zip(ref, got)), default=0.0)
    if worst > 1e-5:
        fail(f"outputs differ: disabled vs enabled, worst relative difference {worst:.3g} > 1e-5")
    print(f"baseline == disabled bit for bit ({len(base)} bytes); enabled within 1e-5 "
          f"(worst {worst:.3g}) with forwarding on")


if __name__ == "__main__":
    sys.exit(main())
