#!/usr/bin/env python3
"""Regression test of the forwarded steady state, on instructions
(callgrind), not time: what the wrapper adds to a forwarded call over the
hipDNN backend alone doing the same per-call work (bench/forwarded), for
each family given a ceiling with --max FAMILY=LIMIT:

  conv          miopenConvolutionForward (test bed's engine that returns at once)
  find2         Find 2.0's miopenRunSolution (same engine)
  find2_tuned   miopenRunSolution of a solution searched with tuning
                (global.benchmarking=1)
  fusion_v2     miopenExecuteFusionPlan_v2 (conv -> bias -> ReLU, reference engine)
  fusion_v1     miopenExecuteFusionPlan (the handle's own workspace)
  bn_inference, bn_training, bn_backward   batchnorm through the library of a
                build whose forwarding set has batchnorm (--batchnorm-lib)
  bn_fused      a batchnorm inference -> RELU fusion plan's
                miopenExecuteFusionPlan_v2, through that library
  bn_fused_bwd  a batchnorm backward -> RELU backward fusion plan's, too

Each family's call must be forwarded (its routing trace, one call): a
declined one would measure MIOpen Private.

A family over its ceiling fails with "FAIL: instruction regression: <family>
adds ...". Exit 77 (CTest: skipped) when valgrind is missing, or when a
batchnorm family is asked for and --batchnorm-lib has no library (exit 1
instead under MIOPEN_WRAP_SECOND_TREES_BUILT=1, which scripts/test.sh sets
once the second trees exist)."""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import measure  # noqa: E402

# family -> (bench/forwarded arguments before the call count, after it), for the
# wrapper and for the backend alone, and which environment it runs in.
FAMILIES = {
    "conv": ((["wrapper"], ["1"]), (["backend"], ["1"]), "dummy"),
    "find2": ((["find2"], ["1"]), (["backend"], ["1"]), "dummy"),
    "find2_tuned": ((["find2_tuned"], ["1"]), (["backend"], ["1"]), "dummy"),
    "fusion_v2": ((["fused"], ["plan"]), (["fused"], ["backend"]), "reference"),
    "fusion_v1": ((["fused"], ["planv1"]), (["fused"], ["backend"]), "reference"),
    "bn_inference": ((["batchnorm"], ["1"]), (["bn_backend"], ["1"]), "batchnorm"),
    "bn_training": ((["bn_training"], ["1"]), (["bn_training_backend"], ["1"]), "batchnorm"),
    "bn_backward": ((["bn_backward"], ["1"]), (["bn_backward_backend"], ["1"]), "batchnorm"),
    "bn_fused": ((["bn_fused"], ["1"]), (["bn_fused_backend"], ["1"]), "batchnorm"),
    "bn_fused_bwd": ((["bn_fused_bwd"], ["1"]), (["bn_fused_bwd_backend"], ["1"]), "batchnorm"),
}


def ceiling(text):
    family, _, limit = text.partition("=")
    if family not in FAMILIES or not limit:
        raise argparse.ArgumentTypeError(f"{text!r}: want FAMILY=LIMIT, FAMILY one of {', '.join(FAMILIES)}")
    return family, float(limit)


def environments(a):
    """Every family's environment: the wrapper and the backend alone run in
    the same one (the test bed's backend reads a variable on every execute,
    whose cost depends on the environment)."""
    lib = os.path.join(a.hipdnn_dir, "lib")
    reference = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": lib}
    dummy = {**reference, "HIPDNN_PLUGIN_DIR": os.path.join(a.hipdnn_dir, "test_plugins"),
             "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": "MINI_TEST_DUMMY_ENGINE"}
    envs = {"dummy": dummy, "reference": reference}
    if a.batchnorm_lib:
        envs["batchnorm"] = {**reference, "LD_LIBRARY_PATH": a.batchnorm_lib}
    return envs


def minimal_environment(extra):
    """Only PATH and the run's own variables: the backend alone's count
    moved by up to 1,000 instructions per call with the environment it
    inherited (by hand, under CTest, another checkout's path), so every
    measurement runs in the same small one."""
    return {k: v for k, v in {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), **extra}.items() if v is not None}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench-dir", required=True)
    ap.add_argument("--hipdnn-dir", required=True, help="the mini hipDNN's build dir (lib/, test_plugins/)")
    ap.add_argument("--batchnorm-lib", help="lib/ of a build whose forwarding set has batchnorm")
    ap.add_argument("--max", type=ceiling, action="append", required=True, metavar="FAMILY=LIMIT")
    ap.add_argument("--calls", type=int, default=2_000)
    a = ap.parse_args()
    if shutil.which("valgrind") is None:
        print("SKIP: valgrind not found (scripts/setup-deps.sh installs it)")
        sys.exit(77)
    limits = dict(a.max)
    if any(FAMILIES[f][2] == "batchnorm" for f in limits) and not (
            a.batchnorm_lib and os.path.exists(os.path.join(a.batchnorm_lib, "libMIOpen.so.1"))):
        # scripts/test.sh's last pass runs after the second trees are built:
        # there the library's absence is a failure, not a reason to skip.
        built = os.environ.get("MIOPEN_WRAP_SECOND_TREES_BUILT") == "1"
        print(f"{'FAIL' if built else 'SKIP'}: no build with batchnorm in its forwarding set "
              f"({a.batchnorm_lib} has no libMIOpen.so.1)")
        sys.exit(1 if built else 77)
    envs = environments(a)
    measure.environment = minimal_environment
    fw = os.path.join(a.bench_dir, "forwarded")
    added = {}
    with tempfile.TemporaryDirectory(prefix="user-db-") as db:  # MIOpen's user db, out of $HOME
        for family in limits:
            wrapper, backend, env_name = FAMILIES[family]
            # glibc's fast bins off in both runs: fewer heap-layout effects.
            env = {**envs[env_name], "MIOPEN_USER_DB_PATH": db, "GLIBC_TUNABLES": "glibc.malloc.mxfast=0"}
            # A declined call would measure MIOpen Private, which may cost less than the backend: the
            # wrapper's run must forward (its routing trace says so) for the figure to mean anything.
            trace = measure.run([fw, *wrapper[0], "1", *wrapper[1]], {**env, "MIOPEN_HIPDNN_LOG_ROUTING": "1"})
            if "-> hipDNN" not in trace:
                sys.exit(f"FAIL: {family}: the call was not forwarded, so nothing of the wrapper's is measured:\n"
                         + trace[-2000:])
            per_call = [measure.instructions_per_call(fw, env, n=a.calls, args=args, tail=tail)
                        for args, tail in (wrapper, backend)]
            added[family] = per_call[0] - per_call[1]
            print(f"{family}: {per_call[0]:.1f} instructions per call, backend alone {per_call[1]:.1f}, "
                  f"wrapper adds {added[family]:+.1f} (allowed {limits[family]:+g})", flush=True)
    over = [f"{f} adds {added[f]:+.1f} (allowed {limits[f]:+g})" for f in limits if added[f] > limits[f] + 0.5]
    if over:
        sys.exit("FAIL: instruction regression: " + "; ".join(over))
    print("PASS: " + ", ".join(f"{f} {added[f]:+.1f}" for f in limits))


if __name__ == "__main__":
    main()
