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
# Every test but the sanitizer runs (label `sanitize`): each builds a whole
# instrumented tree of its own (docs/testing.md, "Sanitizers"). They run here
# with MIOPEN_WRAP_SANITIZE_RUNS=1, or alone: scripts/sanitize.sh address|thread.
ctest --test-dir "$BUILD" --output-on-failure -j 2 -LE sanitize
if [ "${MIOPEN_WRAP_SANITIZE_RUNS:-0}" = 1 ]; then
  ctest --test-dir "$BUILD" --output-on-failure -L sanitize
fi

# The second forwarding set (issue 22): the same sources with batchnorm added
# to the default compile-time forwarding set, built only as far as its tests need (the
# wrapper pair, the hipDNN test bed and its engines, the baseline for the
# negative control and the driver-line comparison, the batchnorm consumers
# (differential, faults, parity, the real-pair matrix), the backend without a pinned symbol, the
# facts the checkers read), then its tests.
BN_BUILD=${BN_BUILD_DIR:-$BUILD-batchnorm}
cmake -S . -B "$BN_BUILD" "-DMIOPEN_HIPDNN_FORWARD_GROUPS=convolution;fusion;find2;batchnorm"
cmake --build "$BN_BUILD" -j 2 --target MIOpen MIOpen_baseline mini_hipdnn_backend \
  mini_hipdnn_reference_engine mini_hipdnn_miopen_provider bn_differential bn_faults_consumer bn_parity_consumer bn_forwarded_consumer \
  fake_hipdnn_missing_symbol miopen_wrap_test_facts
ctest --test-dir "$BN_BUILD" --output-on-failure -j 2 -L batchnorm
