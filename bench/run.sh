#!/usr/bin/env bash
# The performance report: installs the build, builds bench/ against the
# install (a pure consumer, like test/consumers), runs every benchmark and
# rewrites docs/performance.md and docs/performance/*.svg.
# Usage: bench/run.sh [BUILD_DIR] [bench.py options, e.g. --only hop,steady]
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath -m "${1:-build}")
shift || true
INSTALL="$BUILD/install"
OUT="$BUILD/bench"
command -v valgrind >/dev/null || { echo "bench/run.sh: valgrind is needed (scripts/setup-deps.sh installs it)" >&2; exit 1; }
cmake --install "$BUILD" --prefix "$INSTALL" >/dev/null   # always: a stale install would measure old stubs
HD="$BUILD/test/mini-hipdnn"
cmake -S bench -B "$OUT" -DCMAKE_PREFIX_PATH="$INSTALL" -DCMAKE_BUILD_TYPE=Release \
  -DMINI_HIPDNN_DIR="$PWD/test/mini-hipdnn" -DMINI_HIPDNN_BUILD_DIR="$HD" -DMINI_HIPDNN_LIB="$HD/lib/libhipdnn_backend.so" >/dev/null
cmake --build "$OUT" -j 2 >/dev/null
# The batchnorm row needs a library whose forwarding set has batchnorm: the
# second tree scripts/test.sh builds (BENCH_BATCHNORM_BUILD overrides it).
BN_BUILD=$(realpath -m "${BENCH_BATCHNORM_BUILD:-$BUILD-batchnorm}")
BN_LIB=()
[ -e "$BN_BUILD/lib/libMIOpen.so.1" ] && BN_LIB=(--batchnorm-lib "$BN_BUILD/lib")
export MIOPEN_USER_DB_PATH="$OUT/user-db"
export MIOPEN_WRAP_FACTS="$BUILD/test-facts.json"   # the code's facts, for the tests' environment scrub
python3 bench/bench.py --build "$BUILD" --install "$INSTALL" --bench "$OUT" --baseline "$BUILD/baseline" \
  --hipdnn "$HD" --layers bench/resnet50_layers.txt --docs docs "${BN_LIB[@]}" "$@"
