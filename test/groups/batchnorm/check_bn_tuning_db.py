#!/usr/bin/env python3
"""The tuning databases of forwarded batchnorm calls (RFC §4.8;
docs/forwarding.md, "The batchnorm family", "Tuning databases").

A forwarded batchnorm call must leave MIOpen's user db (find-db, perf-db,
whatever MIOpen keeps under MIOPEN_USER_DB_PATH) as MIOpen itself leaves it,
byte for byte. For each direction (bn_differential --op inference, training,
backward: legacy and _V2, random problems), and for each starting db
  empty   a new, empty MIOPEN_USER_DB_PATH;
  seeded  a db that already holds MIOpen's records: what the fusion fault
          sequence (faults_consumer_in_tree fusion, forwarding disabled)
          leaves, MIOpen's fused solver in the user find-db;
it runs the program on a copy of that db
  disabled  the wrapper, MIOPEN_HIPDNN_FORWARDING=disabled (MIOpen's behaviour);
  enabled   forwarding enabled, the routing trace on (most calls forwarded;
            --provider-dir: on the MIOpen provider engine, which runs MIOpen
            Private's batchnorm inside hipDNN);
and requires the two dbs equal: the same file names, the same bytes.

--unseeded-enabled (negative control) starts the enabled run of the seeded
case from an empty db, a forwarded run that leaves the db otherwise than
MIOpen does (its records gone); the comparison must then fail.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lib"))
from wrapper_test import HIPDNN, checked, fail, run, traces  # noqa: E402

OPS = ("inference", "training", "backward")


def files(db):
    """Every file under the db directory, by relative path, with its bytes."""
    out = {}
    for root, _dirs, names in os.walk(db):
        for n in sorted(names):
            path = os.path.join(root, n)
            with open(path, "rb") as fh:
                out[os.path.relpath(path, db)] = fh.read()
    return out


def seed_db(a, path):
    os.makedirs(path)
    p = run([a.faults_consumer, "fusion"], {"MIOPEN_USER_DB_PATH": path, "MIOPEN_HIPDNN_FORWARDING": "disabled"},
            timeout=60)
    if p.returncode != 0:
        fail(f"the fusion sequence (seeding the db) exited {p.returncode}:\n{p.stdout[-1000:]}\n{p.stderr[-1000:]}")
    if not files(path):
        fail("the seeding run wrote no user db record: the seeded case would prove nothing more than the empty one")


def run_bn(a, op, db, mode):
    env = {"MIOPEN_USER_DB_PATH": db, "MIOPEN_HIPDNN_FORWARDING": mode}
    if mode == "enabled":
        env.update({"MIOPEN_HIPDNN_LOG_ROUTING": "1", "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir})
        if a.provider_dir:
            env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
    p = run([a.binary, "--op", op, "--cases", str(a.cases), "--seed", str(a.seed)], env, timeout=300)
    if p.returncode != 0:
        fail(f"--op {op} ({mode}) exited {p.returncode}:\n{p.stderr[-2000:]}")
    return [t for t in traces(p.stderr) if t.family.startswith("bn_")]


def compare(a):
    problems, counts = [], []
    with tempfile.TemporaryDirectory(prefix="bn-db-") as work:
        seeded = os.path.join(work, "seed")
        seed_db(a, seeded)
        seed_files = files(seeded)
        for op in OPS:
            for start in ("empty", "seeded"):
                dbs = {}
                for mode in ("disabled", "enabled"):
                    db = dbs[mode] = os.path.join(work, f"{op}-{start}-{mode}")
                    from_seed = start == "seeded" and not (mode == "enabled" and a.unseeded_enabled)
                    if from_seed:
                        shutil.copytree(seeded, db)
                    else:
                        os.makedirs(db)
                    calls = run_bn(a, op, db, mode)
                    if mode == "enabled":
                        forwarded = sum(1 for t in calls if t.target == HIPDNN)
                        if forwarded < a.cases // 2:
                            fail(f"{op}, {start}: only {forwarded} of {len(calls)} batchnorm calls forwarded")
                got, want = files(dbs["enabled"]), files(dbs["disabled"])
                if got != want:
                    differ = sorted(n for n in set(got) | set(want) if got.get(n) != want.get(n))
                    problems.append(f"{op}, {start} db: the forwarded run's user db differs from MIOpen's own "
                                    f"(files differing: {differ})")
                counts.append((op, start, forwarded, len(want), want == (seed_files if start == "seeded" else {})))
    if not problems:
        print("batchnorm tuning db: the forwarded runs' user dbs equal the disabled runs', byte for byte: "
              + "; ".join(f"{op} {start} ({fwd} calls forwarded, {n} file(s), "
                          f"{'as it started' if same else 'written by MIOpen'})"
                          for op, start, fwd, n, same in counts))
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", required=True, help="bn_differential")
    ap.add_argument("--faults-consumer", required=True, help="faults_consumer_in_tree (seeds the db)")
    ap.add_argument("--backend-dir", required=True, help="HIPDNN_BACKEND_LIBRARY_PATH")
    ap.add_argument("--provider-dir", help="HIPDNN_PLUGIN_DIR of the MIOpen provider engine for the enabled runs")
    ap.add_argument("--cases", type=int, default=40)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--unseeded-enabled", action="store_true", help="negative control")
    a = ap.parse_args()
    return checked("check_bn_tuning_db", lambda: compare(a))


if __name__ == "__main__":
    sys.exit(main())
