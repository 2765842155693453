#!/usr/bin/env python3
"""The forwarded steady state on many threads: ns per call per thread at 1, 2,
4, ... threads (one MIOpen or hipDNN handle each, the timed loops started
together), through the wrapper vs the hipDNN backend alone, every
(configuration, threads) pair once per round, rounds interleaved.

bench.py's `scale` section runs it here; on a many-core machine it runs on
its own (no valgrind, no install, no build), from a folder that holds the
bench binary, the libraries and the test bed (docs/performance.md, "Scaling",
says what to copy and the command):

  python3 bench/scale.py --forwarded DIR/forwarded --hipdnn DIR/mini-hipdnn \\
      --lib after=DIR/lib [--lib before=DIR/before-lib] --threads 1,2,4,8,16 --out scale.json

Each --lib is a folder with libMIOpen.so.1 and libMIOpen_private.so.1 (an
install's lib/): the wrapper is measured with each; the backend alone with
the first. --hipdnn is the test bed's build folder (lib/libhipdnn_backend.so,
test_plugins/)."""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402


def environment(hipdnn, lib):
    """Forwarding on, the test bed's engine that returns at once, `lib`'s libMIOpen."""
    return {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(hipdnn, "lib"),
            "HIPDNN_PLUGIN_DIR": os.path.join(hipdnn, "test_plugins"),
            "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": "MINI_TEST_DUMMY_ENGINE",
            "LD_LIBRARY_PATH": f"{lib}:{os.path.join(hipdnn, 'lib')}"}


def measure_scale(forwarded, hipdnn, libs, threads, rounds, calls):
    """libs: {label: lib folder}. Returns {"threads": {t: {config: stats with
    every round's value}}}; configs are "wrapper (<label>)" per lib and
    "backend alone"."""
    configs = {}
    for t in threads:
        for label, lib in libs.items():
            configs[(t, f"wrapper ({label})")] = ("wrapper", t, environment(hipdnn, lib))
        configs[(t, "backend alone")] = ("backend", t, environment(hipdnn, next(iter(libs.values()))))
    runs = measure.interleaved(configs, rounds, lambda c: measure.field(
        measure.run([forwarded, c[0], str(calls), str(c[1])], c[2]), "ns_per_call_mean"))
    out = {}
    for (t, name), values in runs.items():
        out.setdefault(str(t), {})[name] = {**measure.stats(values), "values": values}
    return {"threads": out, "calls": calls, "rounds": rounds}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--forwarded", required=True, help="the bench binary")
    ap.add_argument("--hipdnn", required=True, help="the test bed's build folder")
    ap.add_argument("--lib", action="append", required=True, help="LABEL=folder of libMIOpen.so.1 (repeatable)")
    ap.add_argument("--threads", default="1,2,4,8,16")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    # Absolute: the test bed reads HIPDNN_PLUGIN_DIR relative to its own library.
    libs = {label: os.path.abspath(d) for label, d in (l.split("=", 1) for l in a.lib)}
    threads = [int(t) for t in a.threads.split(",")]
    result = {"machine": measure.machine(), **measure_scale(os.path.abspath(a.forwarded), os.path.abspath(a.hipdnn), libs, threads, a.rounds, a.calls)}
    with open(a.out, "w") as f:
        json.dump(result, f, indent=1)
    for t, configs in result["threads"].items():
        print(t, {k: round(v["min"]) for k, v in configs.items()})


if __name__ == "__main__":
    main()
