#!/usr/bin/env python3
"""Starts several processes of a db stress program at once, each with several
threads writing records of their own into one user find-db directory, then
counts what the db holds and what the processes printed.

  finds:   the program is find_db_stress (<threads> <per-thread> <first>): every
           Find stores one new record, so the db must hold processes x threads x
           per-thread distinct keys.
  records: the program is db_stress (<db> <threads> <per-thread> <first>): every
           key is stored twice (a new line, then its rewrite); each must end with
           its second value.

Passes when no record is lost and no process printed a warning or an error,
or, with --expect-loss (the negative control: a program whose stores take no
lock), when the count shows records lost."""
import argparse
import os
import re
import shutil
import subprocess
import sys

DB_FILE = "cpu_ref.HIP.ufdb.txt"
WARNING = re.compile(r"MIOpen\(HIP\): (Warning|Error|Fatal)")


def run_all(a, env):
    total = a.threads * a.per_thread
    procs = []
    for p in range(a.processes):
        args = [str(a.threads), str(a.per_thread), str(p * total)]
        if a.mode == "records":
            args.insert(0, os.path.join(a.db_dir, DB_FILE))
        procs.append(subprocess.Popen([a.exe] + args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    outputs = [proc.communicate(timeout=a.timeout) for proc in procs]
    return [proc.returncode for proc in procs], "".join(err for _, err in outputs)


def count(a):
    """(lost, duplicated) against what every process wrote."""
    expected = a.processes * a.threads * a.per_thread
    records = {}
    duplicated = 0
    path = os.path.join(a.db_dir, DB_FILE)
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                key, eq, value = line.rstrip("\n").partition("=")
                if not eq:
                    continue
                duplicated += key in records
                records[key] = value
    if a.mode == "records":
        good = sum(1 for i in range(expected) if records.get("key%d" % i) == "second%d" % i)
    else:
        good = len(records)
    return expected - good, duplicated, expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--exe", required=True)
    ap.add_argument("--mode", choices=("finds", "records"), required=True)
    ap.add_argument("--db-dir", required=True)
    ap.add_argument("--processes", type=int, default=4)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--per-thread", type=int, default=6)
    ap.add_argument("--timeout", type=int, default=600)
    ap.add_argument("--expect-loss", action="store_true")
    a = ap.parse_args()
    shutil.rmtree(a.db_dir, ignore_errors=True)
    os.makedirs(a.db_dir)
    env = dict(os.environ, MIOPEN_USER_DB_PATH=a.db_dir)
    codes, stderr = run_all(a, env)
    warnings = [line for line in stderr.splitlines() if WARNING.search(line)]
    lost, duplicated, expected = count(a)
    print("check_db_stress: %s, %d processes x %d threads x %d: %d records expected, %d lost, %d duplicated, "
          "%d warnings, exit codes %s" % (a.mode, a.processes, a.threads, a.per_thread, expected, lost, duplicated,
                                          len(warnings), codes))
    for line in warnings[:5]:
        print("  " + line)
    if a.expect_loss:
        if lost == 0:
            print("check_db_stress: FAIL: stores without the lock lost nothing: the check cannot see a loss")
            return 1
        return 0
    bad = lost or duplicated or warnings or any(codes)
    if bad:
        print("check_db_stress: FAIL")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
