#!/usr/bin/env python3
"""The tuning databases of a forwarded fusion plan (RFC §4.8, docs/forwarding.md
"Fusion plans").

Runs test/consumers/faults_consumer fusion (compile, workspace, _v2 execute of
conv -> bias -> RELU), each run on a MIOpen user db of its own:
  disabled            MIOpen's compile records its fused solver in the user
                      find-db (so the check can see a write);
  enabled             the compile is MIOpen's too (the hipDNN plan needs
                      workspace, which miopenExecuteFusionPlan cannot pass),
                      so the db must be the disabled run's byte for byte: the
                      forwarded execute and the hipDNN plan add nothing;
  enabled, again      on that db: nothing changes (MIOpen reads its record).
--corrupt expects the enabled run's db to stay empty, the convolution calls'
rule, which MIOpen's own compile breaks (negative control: must fail).
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from protocol import records  # noqa: E402
from wrapper_test import HIPDNN, checked, fail, run, traces  # noqa: E402


def files(db):
    return {f: open(os.path.join(db, f), "rb").read() for f in sorted(os.listdir(db))}


def run_on(a, db, mode):
    env = {"MIOPEN_USER_DB_PATH": db, "MIOPEN_HIPDNN_FORWARDING": mode, "MIOPEN_HIPDNN_LOG_ROUTING": "1",
           "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir}
    p = run([a.consumer, "fusion"], env, timeout=60)
    forward = [r for r in records(p.stdout, "call") if r["call"] == "forward"]
    if p.returncode != 0 or [r["status"] for r in forward] != [0]:
        fail(f"{mode}: the fusion sequence failed (exit {p.returncode}):\n{p.stdout}\n{p.stderr[-2000:]}")
    return [t for t in traces(p.stderr) if t.entry == "miopenExecuteFusionPlan_v2"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--consumer", required=True, help="faults_consumer of the installed tree")
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--corrupt", action="store_true", help="negative control")
    a = ap.parse_args()
    return checked("check_fusion_tuning_db", lambda: compare(a))


def compare(a):
    with tempfile.TemporaryDirectory(prefix="fusion-db-") as work:
        dbs = {m: os.path.join(work, m) for m in ("disabled", "enabled")}
        for db in dbs.values():
            os.makedirs(db)
        run_on(a, dbs["disabled"], "disabled")
        disabled = files(dbs["disabled"])
        if not disabled:
            fail("MIOpen's fusion-plan compile wrote no user find-db record: the check cannot see a write")
        executes = run_on(a, dbs["enabled"], "enabled")
        if not executes or not all(t.target == HIPDNN for t in executes):
            fail(f"the execute was not forwarded: {executes}")
        enabled = files(dbs["enabled"])
        if a.corrupt and enabled:
            fail(f"the forwarded run wrote MIOpen's user db: {sorted(enabled)}")
        if enabled != disabled:
            fail(f"the forwarded run's user db differs from MIOpen's own: {enabled} vs {disabled}")
        again = os.path.join(work, "again")
        shutil.copytree(dbs["enabled"], again)
        run_on(a, again, "enabled")
        if files(again) != enabled:
            fail("a second forwarded run changed the user db")
    print(f"fusion tuning db: the forwarded run's user db is MIOpen's own compile record ({len(disabled)} file(s)), "
          "byte for byte; a second forwarded run changes nothing")


if __name__ == "__main__":
    sys.exit(main())
