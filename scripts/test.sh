#!/usr/bin/env bash
# The whole test suite: install dependencies, build, run every test (CTest
# drives the C++ test beds, the installed-tree consumers, the gates and the
# Rust tests).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}

./scripts/setup-deps.sh
cmake -S . -B "$BUILD"
cmake --build "$BUILD" -j 2
ctest --test-dir "$BUILD" --output-on-failure -j 2
