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
# (label after-second-trees: tests of this tree that read a second tree's
# library, run below once those trees are built.)
ctest --test-dir "$BUILD" --output-on-failure -j 2 -LE 'sanitize|after-second-trees'
if [ "${MIOPEN_WRAP_SANITIZE_RUNS:-0}" = 1 ]; then
  ctest --test-dir "$BUILD" --output-on-failure -L sanitize
fi

# The second trees (issues 22, 29): one per group outside the default
# forwarding set (its test folder's faults.json names `needs_group`;
# scripts/lib/second_trees.py), the same sources with the group added to the
# compile-time forwarding set, built only as far as its tests need (the target
# <group>_tests of test/CMakeLists.txt: the wrapper pair, the hipDNN test bed and
# its engines, the baseline, the group's programs, the facts), then its tests
# (label <group>). Tree: $BUILD-<group>.
mapfile -t trees < <(python3 scripts/lib/second_trees.py)
for tree in "${trees[@]}"; do
  read -r group groups <<<"$tree"
  cmake -S . -B "$BUILD-$group" "-DMIOPEN_HIPDNN_FORWARD_GROUPS=$groups"
  cmake --build "$BUILD-$group" -j 2 --target "${group}_tests"
  ctest --test-dir "$BUILD-$group" --output-on-failure -j 2 -L "$group"
done
MIOPEN_WRAP_SECOND_TREES_BUILT=1 ctest --test-dir "$BUILD" --output-on-failure -j 2 -L after-second-trees
