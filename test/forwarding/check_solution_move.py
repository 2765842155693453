#!/usr/bin/env python3
"""A hipDNN solution saved in one process and loaded in another whose hipDNN
engine differs (docs/forwarding.md, "Find 2.0": a loaded solution's
workspace). test/consumers/solution_move_consumer saves a searched solution
under the --from engine; a second process loads it under the --to engine,
asks its workspace and runs it with that much: the load and the run
succeed, the run is hipDNN's, and its output is MIOpen's (the disabled
run's save and load of the same problem).

--load-arg passes an argument to the loading run (the negative test:
--saved-workspace runs with the saving process's workspace, what a loaded
solution that reported the blob's would make a caller pass).
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import checked, fail, run, traces  # noqa: E402


def engine_env(a, engine):
    env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "MIOPEN_HIPDNN_LOG_ROUTING": "1",
           "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    if engine == "provider":
        env.update(HIPDNN_HEUR_FALLBACK_ENGINE_ORDER="MIOPEN_ENGINE", HIPDNN_PLUGIN_DIR=a.plugin_dir)
    else:
        env["HIPDNN_HEUR_FALLBACK_ENGINE_ORDER"] = "MINI_REFERENCE_ENGINE"
    return env


def step(a, name, args, env):
    r = run([a.consumer] + args, env, timeout=120)
    if r.returncode != 0 or not records(r.stdout, "done"):
        fail(f"{name}: exit status {r.returncode}; stderr tail:\n" + "\n".join(r.stderr.splitlines()[-12:]))
    return r


def one(r, kind):
    got = records(r.stdout, kind)
    if len(got) != 1:
        fail(f"{len(got)} `{kind}` records")
    return got[0]


def move(a, work):
    blob, own = os.path.join(work, "hipdnn.blob"), os.path.join(work, "miopen.blob")
    disabled = {"MIOPEN_HIPDNN_FORWARDING": "disabled"}
    step(a, "disabled save", ["save", own], disabled)
    want = one(step(a, "disabled load", ["load", own], disabled), "call")
    saved = one(step(a, f"save under {a.from_engine}", ["save", blob], engine_env(a, a.from_engine)), "saved")
    r = step(a, f"load under {a.to_engine}", ["load", blob] + a.load_arg, engine_env(a, a.to_engine))
    loaded = one(r, "loaded")
    p = []
    if (loaded["status"], loaded["workspace_status"]) != (0, 0):
        return [f"load under {a.to_engine}: status {loaded['status']}, workspace query {loaded['workspace_status']}"]
    got = one(r, "call")
    if got["status"] != 0:
        p.append(f"the run of the loaded solution failed with status {got['status']} (it reported "
                 f"{loaded['workspace']} bytes of workspace; the saving process {saved['workspace']})")
    elif abs(got["sum"] - want["sum"]) > 1e-3 * max(1.0, abs(want["sum"])):
        p.append(f"the loaded solution's output sums to {got['sum']}, MIOpen's to {want['sum']}")
    runs = [t for t in traces(r.stderr) if t.entry == "miopenRunSolution"]
    if got["status"] == 0 and not (runs and all(t.forwarded for t in runs)):
        p.append(f"the run of the loaded solution was not hipDNN's: {runs}")
    if not p:
        print(f"saved under {a.from_engine} ({saved['workspace']} bytes of workspace), loaded under "
              f"{a.to_engine} ({loaded['workspace']} bytes): the run is hipDNN's and matches MIOpen's")
    return p


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--consumer", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--plugin-dir", required=True, help="HIPDNN_PLUGIN_DIR (the MIOpen provider's)")
    ap.add_argument("--from", dest="from_engine", choices=("reference", "provider"), required=True)
    ap.add_argument("--to", dest="to_engine", choices=("reference", "provider"), required=True)
    ap.add_argument("--load-arg", action="append", default=[])
    a = ap.parse_args()

    def body():
        with tempfile.TemporaryDirectory(prefix="solution-move-") as work:
            return move(a, work)
    return checked(f"check_solution_move {a.from_engine} -> {a.to_engine}", body)


if __name__ == "__main__":
    sys.exit(main())
