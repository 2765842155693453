#!/usr/bin/env python3
"""The repository's clippy.toml refuses std's Mutex (why: the wrapper's locks
are forwarding-core's `sync::Mutex`, which ThreadSanitizer sees; see
rust/forwarding-core/src/sync.rs and docs/testing.md, "Sanitizers").

`rust_fmt_and_clippy` passes on the workspace, which would also pass if the
disallow never fired (a misspelt path, a clippy.toml clippy does not read).
This check runs clippy with the repository's clippy.toml on a throwaway crate
that locks a std Mutex and requires clippy to refuse it, naming the type and
the reason the file gives; then the same crate with the project's own lock
spelled as a local type, which clippy must accept (so the refusal is about
the type, not a broken crate).

  check_clippy_disallow.py [--empty-conf] [--target-dir DIR]

--empty-conf: the negative control: clippy reads its configuration from an
empty directory instead of the repository root, so it accepts std's Mutex and
this check must fail.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

MANIFEST = """[package]
name = "clippy_disallow_probe"
version = "0.0.0"
edition = "2021"
publish = false

[lib]
path = "lib.rs"

[workspace]
"""

STD_LOCK = """pub fn count(n: &std::sync::Mutex<u32>) -> u32 {
    *n.lock().unwrap_or_else(|e| e.into_inner())
}
"""

LOCAL_LOCK = """pub struct Mutex<T>(pub T);
pub fn count(n: &Mutex<u32>) -> u32 {
    n.0
}
"""


def clippy(source: str, conf_dir: str, target_dir: str) -> subprocess.CompletedProcess:
    with tempfile.TemporaryDirectory(prefix="clippy-disallow-") as crate:
        with open(os.path.join(crate, "Cargo.toml"), "w") as f:
            f.write(MANIFEST)
        with open(os.path.join(crate, "lib.rs"), "w") as f:
            f.write(source)
        env = dict(os.environ, CLIPPY_CONF_DIR=conf_dir, CARGO_TARGET_DIR=target_dir)
        return subprocess.run(["cargo", "clippy", "--quiet", "--offline", "--", "-D", "warnings"], cwd=crate,
                              env=env, capture_output=True, text=True, timeout=600)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--empty-conf", action="store_true")
    ap.add_argument("--target-dir", default=os.path.join(tempfile.gettempdir(), "clippy-disallow-target"))
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="clippy-conf-empty-") as empty:
        return check(empty if a.empty_conf else ROOT, a.target_dir)


def check(conf_dir: str, target_dir: str) -> int:

    refused = clippy(STD_LOCK, conf_dir, target_dir)
    out = refused.stdout + refused.stderr
    if refused.returncode == 0:
        print(f"FAIL: clippy accepted std::sync::Mutex with the clippy.toml of {conf_dir}: the disallow does not fire")
        return 1
    if "disallowed type" not in out or "use miopen_forwarding_core::sync::Mutex" not in out:
        print(f"FAIL: clippy refused the crate, but not for the disallowed std::sync::Mutex:\n{out}")
        return 1
    accepted = clippy(LOCAL_LOCK, conf_dir, target_dir)
    if accepted.returncode != 0:
        print(f"FAIL: clippy refused the probe crate without std's Mutex:\n{accepted.stdout}{accepted.stderr}")
        return 1
    print("OK: clippy.toml refuses std::sync::Mutex (naming forwarding-core's lock) and accepts the same crate without it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
