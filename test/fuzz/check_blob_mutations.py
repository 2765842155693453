#!/usr/bin/env python3
"""The damaged-blob measurement of issue 34, and its gate.

For each configuration (forwarding disabled: the mini MIOpen's blob; enabled
on the reference engine and on the MIOpen provider engine: the wrapper's
blob) `blob_mutation save` writes a solution blob and its result; then N
single mutations of it (bit flip, byte overwrite, truncation, extension, in
equal shares, from a fixed seed) are each loaded and run by
`blob_mutation run` in a process of its own. A process killed by a signal
(or by ASan, which exits 1 with a report) is a crash; a run past the time
limit is a hang. Prints one table row per configuration.

With --expect-safe (the suite's gate) the check fails on any crash, hang,
absurd workspace or wrong result of a loaded blob. Its negative control
(--negative-run-descriptorless-offset) cannot be run against a fixed wrapper,
so the gate is also checked by --expect-crashes-at-least, which the CTest
runs against a program that crashes on purpose (blob_mutation's `crash`).
"""
from __future__ import annotations

import argparse
import collections
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "lib"))
from wrapper_test import environment  # noqa: E402

KINDS = ("bit flip", "byte overwrite", "truncation", "extension")
COLUMNS = ("refused at load", "run refused", "correct", "wrong result", "absurd workspace", "crashes", "hangs")


def mutate(blob: bytes, kind: str, rng: random.Random) -> bytes:
    b = bytearray(blob)
    if kind == "bit flip":
        i = rng.randrange(len(b))
        b[i] ^= 1 << rng.randrange(8)
    elif kind == "byte overwrite":
        i = rng.randrange(len(b))
        b[i] = (b[i] + rng.randrange(1, 256)) % 256
    elif kind == "truncation":
        del b[rng.randrange(len(b)):]
    else:
        b += bytes(rng.randrange(256) for _ in range(rng.randrange(1, 17)))
    return bytes(b)


MAGIC = b"hipDNN-solution\0"
HEADER = len(MAGIC) + 8  # magic, format version, payload length


def fnv1a64(data: bytes) -> int:
    h = 0xcbf29ce484222325
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def resign(blob: bytes) -> bytes:
    """A mutated wrapper blob with its length and checksum made right again:
    what a deliberate edit looks like (docs/forwarding.md, "Saved solutions"),
    so the field checks, not the checksum, must refuse it."""
    if not blob.startswith(MAGIC) or len(blob) < HEADER + 8:
        return blob
    body = bytearray(blob[:-8])
    body[len(MAGIC) + 4:HEADER] = (len(body) - HEADER).to_bytes(4, "little")
    return bytes(body) + fnv1a64(bytes(body)).to_bytes(8, "little")


def verdict(proc: subprocess.CompletedProcess | None) -> str:
    if proc is None:
        return "hangs"
    out = proc.stdout.strip()
    if proc.returncode < 0 or "ERROR: AddressSanitizer" in proc.stderr or "runtime error:" in proc.stderr:
        return "crashes"
    if proc.returncode != 0:
        return "crashes"
    first = out.split()[0] if out else ""
    return {"LOAD_REFUSED": "refused at load", "RUN_REFUSED": "run refused", "CORRECT": "correct",
            "WRONG": "wrong result", "ABSURD_WORKSPACE": "absurd workspace"}.get(first, "crashes")


def run_one(cmd: list[str], env: dict, timeout: float) -> subprocess.CompletedProcess | None:
    try:
        return subprocess.run(cmd, env=env, capture_output=True, text=True, errors="replace", timeout=timeout)
    except subprocess.TimeoutExpired:
        return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", required=True)
    ap.add_argument("--backend-dir", required=True)
    ap.add_argument("--provider-dir", required=True)
    ap.add_argument("--work-dir", required=True)
    ap.add_argument("--mutations", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=34)
    ap.add_argument("--configs", default="disabled,reference,provider")
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--expect-safe", action="store_true",
                    help="fail on a crash, hang, absurd workspace or wrong result")
    ap.add_argument("--show", type=int, default=3, help="examples shown per bad verdict")
    ap.add_argument("--resign", action="store_true",
                    help="re-sign each mutated wrapper blob (length and checksum), as a deliberate edit would")
    a = ap.parse_args()

    engines = {"reference": "MINI_REFERENCE_ENGINE", "provider": "MIOPEN_ENGINE"}
    base = environment({"MIOPEN_USER_DB_PATH": os.path.join(a.work_dir, "user-db")})
    configs = {"disabled": {"MIOPEN_HIPDNN_FORWARDING": "disabled"}}
    for e, engine in engines.items():
        env = {"MIOPEN_HIPDNN_FORWARDING": "enabled", "HIPDNN_BACKEND_LIBRARY_PATH": a.backend_dir,
               "HIPDNN_HEUR_FALLBACK_ENGINE_ORDER": engine}
        if e == "provider":
            env["HIPDNN_PLUGIN_DIR"] = a.provider_dir
        configs[e] = env

    problems = []
    print("| configuration | " + " | ".join(COLUMNS) + " |")
    print("| --- |" + " --- |" * len(COLUMNS))
    for name in a.configs.split(","):
        env = dict(base, **configs[name])
        work = os.path.join(a.work_dir, name)
        os.makedirs(work, exist_ok=True)
        saved = subprocess.run([a.binary, "save", work], env=env, capture_output=True, text=True)
        if saved.returncode != 0:
            print(f"FAIL: {name}: save failed ({saved.returncode}): {saved.stderr[-2000:]}")
            return 1
        blob = open(os.path.join(work, "solution.bin"), "rb").read()
        rng = random.Random(f"{a.seed}-{name}")
        counts = collections.Counter()
        examples = collections.defaultdict(list)
        mutant = os.path.join(work, "mutant.bin")
        for i in range(a.mutations):
            kind = KINDS[i % len(KINDS)]
            data = mutate(blob, kind, rng)
            if a.resign:
                data = resign(data)
            with open(mutant, "wb") as f:
                f.write(data)
            proc = run_one([a.binary, "run", mutant, work], env, a.timeout)
            v = verdict(proc)
            counts[v] += 1
            if v in ("wrong result", "absurd workspace", "crashes", "hangs") and len(examples[v]) < a.show:
                tail = "" if proc is None else (proc.stdout.strip() + " " + proc.stderr.strip()[-300:])
                examples[v].append(f"mutation {i} ({kind}, rc={None if proc is None else proc.returncode}): {tail}")
        print(f"| {name} ({len(blob)}-byte blob) | " + " | ".join(f"{counts[c]:,}" for c in COLUMNS) + " |")
        for v, lines in examples.items():
            for line in lines:
                print(f"  {name}: {v}: {line}")
        if a.expect_safe:
            for v in ("wrong result", "absurd workspace", "crashes", "hangs"):
                if counts[v]:
                    problems.append(f"{name}: {counts[v]} mutation(s) gave '{v}'")
    for p in problems:
        print(f"FAIL: {p}")
    if not problems:
        print(f"PASS: {a.mutations} mutations per configuration")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
