#!/usr/bin/env python3
"""The wrapper's performance report: every benchmark, then docs/performance.md
and its SVG plots. Run through bench/run.sh (which installs the build and
builds the benchmark binaries against the install)."""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_steady  # noqa: E402
import measure  # noqa: E402
import report  # noqa: E402
import scale as scaling  # noqa: E402


def hop(a):
    """Pass-through hop on miopenGetVersion, four ways (+ the routed path)."""
    pt, impl = os.path.join(a.bench, "passthrough"), os.path.join(a.bench, "passthrough_impl")
    variants = {
        "pre-wrapper library": (pt, {"LD_LIBRARY_PATH": a.baseline}),
        "_impl called directly": (impl, {}),
        "bare tail-jump shim": (pt, {"LD_LIBRARY_PATH": os.path.join(a.bench, "shim")}),
        "wrapper, disabled": (pt, {"MIOPEN_HIPDNN_FORWARDING": "disabled"}),
        "wrapper, enabled (routed path)": (pt, {"MIOPEN_HIPDNN_FORWARDING": "enabled"}),
    }
    ns = measure.interleaved(variants, a.rounds,
                             lambda v: measure.field(measure.run([v[0], str(a.hop_calls)], v[1]), "ns_per_call"))
    instr = {label: measure.instructions_per_call(v[0], v[1]) for label, v in variants.items()}
    # A descriptor setter: its routed body also reports the descriptor.
    setter = {label: measure.instructions_per_call(v[0], v[1], tail=["setter"]) for label, v in variants.items()
              if label != "bare tail-jump shim"}
    return {"ns": {k: measure.stats(v) for k, v in ns.items()}, "instructions": instr, "setter_instructions": setter,
            "calls": a.hop_calls}


def load_cost(a):
    """Peak RSS and page faults of a process that loads the library and makes one call."""
    pt = os.path.join(a.bench, "passthrough")
    libs = [os.path.join(a.install, "lib", f) for f in ("libMIOpen.so.1", "libMIOpen_private.so.1")]
    variants = {"pre-wrapper library": {"LD_LIBRARY_PATH": a.baseline},
                "wrapper (disabled)": {"MIOPEN_HIPDNN_FORWARDING": "disabled"}}
    base_lib = [os.path.join(a.baseline, "libMIOpen.so.1")]
    out = {}
    for cache in ("warm", "cold"):
        def one(env, cache=cache):
            if cache == "cold":
                measure.evict_from_page_cache(libs + base_lib)
            text = measure.run([pt, "1"], env)
            return {k: measure.field(text, k) for k in ("vm_hwm_kb", "major_faults", "minor_faults")}

        runs = measure.interleaved(variants, a.rounds, one)
        out[cache] = {label: {k: measure.stats([r[k] for r in rs]) for k in rs[0]} for label, rs in runs.items()}
    return out


def forwarded_env(a, plugins):
    return {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(a.hipdnn, "lib"),
            "HIPDNN_PLUGIN_DIR": os.path.join(a.hipdnn, plugins)}


def steady_state(a):
    """ns per forwarded call with an engine that returns at once, vs the backend alone."""
    env = forwarded_env(a, "test_plugins")
    env["HIPDNN_HEUR_FALLBACK_ENGINE_ORDER"] = "MINI_TEST_DUMMY_ENGINE"
    fw = os.path.join(a.bench, "forwarded")
    out = {}
    for threads in (1, 8):
        modes = {"wrapper": "wrapper", "backend": "backend"}
        runs = measure.interleaved(modes, a.rounds, lambda m: measure.field(
            measure.run([fw, m, str(a.steady_calls), str(threads)], env), "ns_per_call_mean"))
        out[threads] = {m: measure.stats(v) for m, v in runs.items()}
    # Exact and noise-free: instructions per call, single thread.
    out["instructions"] = {m: measure.instructions_per_call(fw, env, n=10_000, args=[m], tail=["1"])
                           for m in ("wrapper", "backend", "find2", "find2_tuned")}
    # Every test-bed getter asks whether to log (the level is read once, as in
    # MIOpen): how much of the wrapper's share that check is.
    calls = 20_000
    out["instructions"]["test bed log-level reads"] = measure.inclusive_instructions(
        [fw, "wrapper", str(calls), "1"], env, "miopen::IsLogging(", os.path.join(a.bench, "steady.callgrind")) / calls
    return out


def scale(a):
    """ns per call per thread at 1..--scale-threads threads here (this
    build's wrapper, --scale-before's too when given, and the backend
    alone); a many-core run made with bench/scale.py (--scale-results) is
    kept beside it."""
    libs = {"this build": os.path.join(a.install, "lib")}
    if a.scale_before:
        libs["before"] = a.scale_before
    threads = [int(t) for t in a.scale_threads.split(",")]
    here = scaling.measure_scale(os.path.join(a.bench, "forwarded"), a.hipdnn, libs, threads, a.rounds,
                                 a.scale_calls)
    out = {"here": {"machine": measure.machine(), **here}}
    if a.scale_results:
        out["many_core"] = json.load(open(a.scale_results))
    return out


def fused(a):
    """Instructions per forwarded conv -> bias -> ReLU: a fusion plan's
    execute and miopenConvolutionBiasActivationForward, both on the same
    hipDNN plan, and the backend alone running that graph's plan (reference
    engine: the test bed's own plugin directory)."""
    fw = os.path.join(a.bench, "forwarded")
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(a.hipdnn, "lib")}
    return {"instructions": {api: measure.instructions_per_call(fw, env, n=2_000, args=["fused"], tail=[api])
                             for api in ("plan", "planv1", "onecall", "backend")}}


# Each batchnorm pass: the bench mode through the wrapper, the backend-alone
# mode, and the family name the routing trace gives a forwarded call.
BATCHNORM_PASSES = {"inference": ("batchnorm", "bn_backend", "bn_fwd_inference"),
                    "training": ("bn_training", "bn_training_backend", "bn_fwd_training"),
                    "backward": ("bn_backward", "bn_backward_backend", "bn_bwd"),
                    "inference -> RELU fusion plan": ("bn_fused", "bn_fused_backend", "fusion_plan"),
                    "backward -> RELU backward fusion plan": ("bn_fused_bwd", "bn_fused_bwd_backend", "fusion_plan")}


def batchnorm(a):
    """Instructions per batchnorm call (1x1x4x4 fp32, spatial: inference,
    training saving the batch statistics, backward with them, and the
    inference and the backward as fusion plans with a RELU) through the
    library of a build whose forwarding set has batchnorm (--batchnorm-lib:
    its lib/): disabled (MIOpen Private's CPU kernel), enabled (forwarded,
    reference engine), and the backend alone running the same graph's plan
    with the same engine, in the enabled run's environment (the test bed's
    backend reads a variable on every execute, whose cost depends on the
    environment); the wrapper's share is enabled minus backend."""
    if not a.batchnorm_lib:
        return {"skipped": "no build with batchnorm in its forwarding set (bench/run.sh looks for BUILD-batchnorm)"}
    fw = os.path.join(a.bench, "forwarded")
    # As bench/check_steady.py measures: glibc's fast bins off, and only PATH
    # and each run's own variables (the backend alone's count moved by
    # hundreds of instructions per call with the environment it inherited).
    lib = {"LD_LIBRARY_PATH": a.batchnorm_lib, "GLIBC_TUNABLES": "glibc.malloc.mxfast=0",
           "MIOPEN_USER_DB_PATH": os.path.join(a.bench, "user-db")}
    backend = {"HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(a.hipdnn, "lib")}
    enabled = {**lib, **backend, "MIOPEN_HIPDNN_FORWARDING": "enabled"}
    saved, measure.environment = measure.environment, check_steady.minimal_environment
    try:
        return batchnorm_passes(fw, lib, enabled)
    finally:
        measure.environment = saved


def batchnorm_passes(fw, lib, enabled):
    """[`batchnorm`]'s measurements, in the environment it set."""
    out = {}
    for name, (mode, backend_mode, family) in BATCHNORM_PASSES.items():
        # The enabled configuration must forward: a library without the group would measure MIOpen.
        trace = measure.run([fw, mode, "1", "1"], {**enabled, "MIOPEN_HIPDNN_LOG_ROUTING": "1"})
        if f"[{family}] -> hipDNN" not in trace:
            raise RuntimeError(f"{lib['LD_LIBRARY_PATH']}: batchnorm {name} was not forwarded:\n{trace}")
        configs = {"disabled": (mode, {**lib, "MIOPEN_HIPDNN_FORWARDING": "disabled"}),
                   "enabled": (mode, enabled), "backend": (backend_mode, enabled)}
        out[name] = {label: measure.instructions_per_call(fw, env, n=5_000, args=[m], tail=["1"])
                     for label, (m, env) in configs.items()}
    return {"instructions": out}


def cold_start(a):
    """The first convolution of a fresh process, in microseconds."""
    fw = os.path.join(a.bench, "forwarded")
    modes = {"disabled": {"MIOPEN_HIPDNN_FORWARDING": "disabled"},
             "enabled, MIOpen provider engine": forwarded_env(a, "provider_plugins"),
             "enabled, reference engine": {"MIOPEN_HIPDNN_FORWARDING": "enabled",
                                           "HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(a.hipdnn, "lib")}}
    runs = measure.interleaved(modes, a.cold_runs,
                               lambda env: measure.field(measure.run([fw, "coldstart", "0", "0"], env), "us"))
    return {m: {**measure.stats(v), "values": v} for m, v in runs.items()}


def end_to_end(a):
    """The ResNet-50 conv layers through MIOpenDriver, per layer, three
    configurations interleaved round by round (every round's value kept)."""
    drv = os.path.join(a.install, "bin", "MIOpenDriver")
    # The driver turns the wrapper's exit summary on unless told otherwise;
    # counting every call would put the disabled run on the routed path.
    quiet = {"MIOPEN_HIPDNN_EXIT_SUMMARY": "0"}
    configs = {"baseline": {"LD_LIBRARY_PATH": a.baseline},
               "disabled": {**quiet, "MIOPEN_HIPDNN_FORWARDING": "disabled"},
               "enabled": {**quiet, "MIOPEN_HIPDNN_FORWARDING": "enabled",
                           "HIPDNN_BACKEND_LIBRARY_PATH": os.path.join(a.hipdnn, "lib"),
                           "HIPDNN_PLUGIN_DIR": os.path.join(a.hipdnn, "provider_plugins")}}
    layers = [l.split() for l in open(a.layers) if l.startswith("./bin/MIOpenDriver")]
    out = []
    for argv in layers[:a.max_layers]:
        args = argv[1:] + ["-n", str(a.layer_batch), "-i", str(a.layer_iters), "-t", "1", "-V", "0"]
        ms = measure.interleaved(configs, a.layer_rounds, lambda env: measure.field(
            re.sub(r"average of the other \d+: ", "avg_ms=", measure.run([drv] + args, env)), "avg_ms"))
        out.append({"layer": layer_name(argv), "ms": {c: {**measure.stats(v), "values": v} for c, v in ms.items()}})
    return out


def layer_name(argv):
    f = dict(zip(argv[2::2], argv[3::2]))
    return (f"{f['--in_channels']}x{f['--in_h']}x{f['--in_w']} k{f['--out_channels']} "
            f"{f['--fil_h']}x{f['--fil_w']}/{f['--conv_stride_h']}")


def main():
    ap = argparse.ArgumentParser()
    for name in ("build", "install", "bench", "baseline", "hipdnn", "layers", "docs"):
        ap.add_argument(f"--{name}", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--hop-calls", type=int, default=20_000_000)
    ap.add_argument("--steady-calls", type=int, default=50_000)
    ap.add_argument("--cold-runs", type=int, default=11)
    ap.add_argument("--layer-batch", type=int, default=1)
    ap.add_argument("--layer-iters", type=int, default=3)
    ap.add_argument("--layer-rounds", type=int, default=5)
    ap.add_argument("--max-layers", type=int, default=100)
    ap.add_argument("--batchnorm-lib", help="lib/ of a build whose forwarding set has batchnorm (the batchnorm row)")
    ap.add_argument("--scale-threads", default="1,2", help="thread counts of the scale section here")
    ap.add_argument("--scale-calls", type=int, default=100_000)
    ap.add_argument("--scale-before", help="lib/ of another install whose wrapper the scale section measures too")
    ap.add_argument("--scale-results", help="bench/scale.py's JSON from a many-core machine, for the report")
    ap.add_argument("--only", help="comma-separated sections to run (default: all)")
    ap.add_argument("--report-only", action="store_true", help="rewrite the report from the last results.json")
    a = ap.parse_args()
    if a.report_only:
        report.write(json.load(open(os.path.join(a.bench, "results.json"))), a.docs)
        return
    sections = {"hop": hop, "load": load_cost, "steady": steady_state, "cold": cold_start, "e2e": end_to_end,
                "fused": fused, "batchnorm": batchnorm, "scale": scale}
    wanted = a.only.split(",") if a.only else list(sections)
    saved = os.path.join(a.bench, "results.json")
    # A subset (--only) updates the previous run's results; the report shows all.
    results = json.load(open(saved)) if a.only and os.path.exists(saved) else {}
    results.update({"machine": measure.machine(), "params": vars(a)})
    for name in wanted:
        print(f"bench: {name} ...", flush=True)
        results[name] = sections[name](a)
    with open(saved, "w") as f:
        json.dump(results, f, indent=1)
    report.write(results, a.docs)
    print(f"report: {os.path.join(a.docs, 'performance.md')}")


if __name__ == "__main__":
    main()
