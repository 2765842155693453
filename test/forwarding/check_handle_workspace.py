#!/usr/bin/env python3
"""The workspace a MIOpen handle owns for hipDNN plans MIOpen's API passes
none to (docs/forwarding.md, "Workspace the wrapper allocates").

Runs test/consumers/handle_workspace_consumer (a fused conv + bias + ReLU
plan executed with miopenExecuteFusionPlan) disabled and enabled, on the
engine given, and checks one property per subcommand; every run's outputs
must match the disabled run's.

  registered   the allocator registered with miopenSetAllocator is the one
               called, once over every execute (the buffer is reused), and
               its deallocator frees the buffer at miopenDestroy; HIP is not called
  hip          with none registered, HIP's hipMalloc (the runtime MIOpen
               Private loaded: the test bed's stand-in) once, hipFree at destroy
  cap          MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT under the plan's need:
               every execute declined to MIOpen, naming the variable; nothing allocated
  failure      a registered allocator that returns no memory: every execute
               declined to MIOpen with the reason, and MIOpen's result
  uncompiled   miopenFusionPlanGetWorkSpaceSize on a plan never compiled:
               MIOpen's status and size, enabled as disabled

--consumer-arg passes an argument to the consumer's enabled run, --set a
variable (the negative tests change the scenario so).
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import checked, fail, run, traces  # noqa: E402

EXECUTE = "miopenExecuteFusionPlan"
LIMIT_VAR = "MIOPEN_HIPDNN_HANDLE_WORKSPACE_LIMIT"


def consumer_run(a, name, env, args):
    r = run([a.consumer] + args, env, timeout=120)
    if r.returncode != 0 or not records(r.stdout, "done"):
        fail(f"{name} run: exit status {r.returncode}; stderr tail:\n" + "\n".join(r.stderr.splitlines()[-12:]))
    return r


def runs(a, base_args):
    disabled = consumer_run(a, "disabled", {"MIOPEN_HIPDNN_FORWARDING": "disabled"}, base_args)
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
           "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir, "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": a.engine}
    if a.plugin_dir:
        env["HIPDNN_PLUGIN_DIR"] = a.plugin_dir
    env.update(kv.split("=", 1) for kv in a.set)
    enabled = consumer_run(a, "enabled", env, base_args + a.consumer_arg)
    return disabled, enabled


def same_results(disabled, enabled):
    d, e = records(disabled.stdout, "call"), records(enabled.stdout, "call")
    if [c["status"] for c in d] != [c["status"] for c in e]:
        return [f"statuses differ: disabled {[c['status'] for c in d]}, enabled {[c['status'] for c in e]}"]
    return [f"{x['call']}: sum {y['sum']} enabled, {x['sum']} disabled" for x, y in zip(d, e)
            if abs(x["sum"] - y["sum"]) > 1e-3 * max(1.0, abs(x["sum"]))]


def executes(enabled):
    return [t for t in traces(enabled.stderr) if t.entry == EXECUTE]


def counts(run_):
    c = records(run_.stdout, "counts")
    if len(c) != 1:
        fail(f"{len(c)} counts records")
    return c[0]


def all_forwarded(enabled, n):
    t = executes(enabled)
    off = [f"{x.target} ({x.reason})" for x in t if not x.forwarded]
    if len(t) != n or off:
        return [f"{len(t) - len(off)} of {n} executes forwarded; not: {off[:3]}"]
    return []


def all_declined(enabled, n, because):
    t = executes(enabled)
    on = [x for x in t if x.forwarded]
    if on:
        return [f"{len(on)} of {n} executes forwarded, although {because}"]
    wrong = [x.reason for x in t if because not in x.reason]
    if len(t) != n or wrong:
        return [f"{len(t)} executes declined, want {n}, each naming `{because}`; other reasons: {wrong[:2]}"]
    return []


def check_registered(a):
    disabled, enabled = runs(a, ["--allocator", "registered", "--executes", str(a.executes)])
    p = same_results(disabled, enabled) + all_forwarded(enabled, a.executes)
    c = counts(enabled)
    if c["registered_allocations"] == 0:
        p.append("the allocator registered with miopenSetAllocator was not called")
    elif c["registered_allocations"] != 1:
        p.append(f"the registered allocator was called {c['registered_allocations']} times over "
                 f"{a.executes} executes, want 1 (the buffer reused)")
    if c["registered_frees"] != c["registered_allocations"]:
        p.append(f"the registered deallocator freed {c['registered_frees']} of {c['registered_allocations']} "
                 "buffer(s) by miopenDestroy")
    if c["hip_mallocs"] != 0:
        p.append(f"hipMalloc was called {c['hip_mallocs']} times although an allocator was registered")
    if not p:
        print(f"registered: {a.executes} executes forwarded, 1 allocation, freed at miopenDestroy")
    return p


def check_hip(a):
    disabled, enabled = runs(a, ["--allocator", "none", "--executes", str(a.executes)])
    p = same_results(disabled, enabled) + all_forwarded(enabled, a.executes)
    c, before = counts(enabled), counts(disabled)
    if before["hip_mallocs"] != 0:
        p.append(f"the disabled run called hipMalloc {before['hip_mallocs']} times")
    if c["hip_mallocs"] != 1:
        p.append(f"hipMalloc was called {c['hip_mallocs']} times over {a.executes} executes, want 1")
    if c["hip_frees"] != c["hip_mallocs"]:
        p.append(f"hipFree freed {c['hip_frees']} of {c['hip_mallocs']} buffer(s) by miopenDestroy")
    if not p:
        print(f"hip: {a.executes} executes forwarded, 1 hipMalloc, 1 hipFree at miopenDestroy")
    return p


def check_cap(a):
    disabled, enabled = runs(a, ["--allocator", "registered", "--executes", str(a.executes)])
    p = same_results(disabled, enabled) + all_declined(enabled, a.executes, LIMIT_VAR)
    if counts(enabled)["registered_allocations"] != 0:
        p.append("the wrapper allocated a workspace over the cap")
    if not p:
        print(f"cap: {a.executes} executes declined to MIOpen, naming {LIMIT_VAR}; nothing allocated")
    return p


def check_failure(a):
    disabled, enabled = runs(a, ["--allocator", "failing", "--executes", str(a.executes)])
    p = same_results(disabled, enabled) + all_declined(enabled, a.executes, "returned no memory")
    if not p:
        print(f"failure: {a.executes} executes declined to MIOpen with the allocator's failure; results as disabled")
    return p


def check_uncompiled(a):
    disabled, enabled = runs(a, ["--workspace-query", "uncompiled"])
    d, e = records(disabled.stdout, "workspace"), records(enabled.stdout, "workspace")
    if len(d) != 1 or len(e) != 1:
        fail("no workspace record")
    d, e = d[0], e[0]
    if (d["status"], d["size"]) != (e["status"], e["size"]):
        return [f"workspace of a {e['plan']} plan: enabled status {e['status']} size {e['size']}, "
                f"disabled status {d['status']} size {d['size']}"]
    print(f"uncompiled: status {e['status']}, {e['size']} bytes, enabled as disabled")
    return []


CHECKS = {"registered": check_registered, "hip": check_hip, "cap": check_cap, "failure": check_failure,
          "uncompiled": check_uncompiled}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("check", choices=sorted(CHECKS))
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--engine", default="MINI_REFERENCE_ENGINE", help="HIPDNN_HEUR_FALLBACK_ENGINE_ORDER")
    ap.add_argument("--plugin-dir", help="HIPDNN_PLUGIN_DIR (the MIOpen provider's)")
    ap.add_argument("--executes", type=int, default=4)
    ap.add_argument("--set", action="append", default=[], metavar="K=V", help="the enabled run's environment")
    ap.add_argument("--consumer-arg", action="append", default=[], help="an argument of the enabled run")
    a = ap.parse_args()
    return checked(f"check_handle_workspace {a.check}", lambda: CHECKS[a.check](a))


if __name__ == "__main__":
    sys.exit(main())
