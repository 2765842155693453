#!/usr/bin/env bash
# The main job: install dependencies, build everything, install, and run one
# convolution through libMIOpen.so in both modes, routing visible on stderr,
# result checked against a reference computed by the demo itself.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${BUILD_DIR:-build}

./scripts/setup-deps.sh
cmake -S . -B "$BUILD"
cmake --build "$BUILD" -j 2
cmake --install "$BUILD" --prefix "$BUILD/install" >/dev/null
cmake -S test/consumers -B "$BUILD/demo" -DCMAKE_PREFIX_PATH="$PWD/$BUILD/install" >/dev/null
cmake --build "$BUILD/demo" --target conv_demo -j 2 >/dev/null
demo="$BUILD/demo/conv_demo"
# MIOpen persists find results in a user db; keep the demo's in the build tree.
export MIOPEN_USER_DB_PATH="$PWD/$BUILD/user-db"

echo
echo "== libMIOpen.so and what it loads"
readelf -d "$BUILD/install/lib/libMIOpen.so.1" | grep -E 'SONAME|NEEDED'
echo
echo "== 1. pre-wrapper baseline libMIOpen.so.1 (no wrapper in the process)"
LD_LIBRARY_PATH="$PWD/$BUILD/baseline" "$demo"
echo
echo "== 2. wrapper, MIOPEN_HIPDNN_FORWARDING=disabled (default), routing trace via MIOPEN_LOG_LEVEL=5"
MIOPEN_HIPDNN_FORWARDING=disabled MIOPEN_LOG_LEVEL=5 "$demo"
echo
echo "== 3. wrapper, MIOPEN_HIPDNN_FORWARDING=enabled, routing trace via MIOPEN_LOG_LEVEL=5"
MIOPEN_HIPDNN_FORWARDING=enabled MIOPEN_LOG_LEVEL=5 "$demo"
echo
echo "== 4. wrapper, default environment (silent, byte-identical stderr to the baseline)"
"$demo"
