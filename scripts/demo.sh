#!/usr/bin/env bash
# The main job: install dependencies, build everything, install, and run one
# convolution through libMIOpen.so against the pre-wrapper baseline, with
# forwarding disabled and enabled (executed by hipDNN), routing visible on
# stderr, each result checked against a reference computed by the demo.
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
echo "== 2. wrapper, MIOPEN_HIPDNN_FORWARDING=disabled (default), routing trace via MIOPEN_HIPDNN_LOG_ROUTING=1 (MIOPEN_LOG_LEVEL=5 prints it too, with MIOpen's own log)"
MIOPEN_HIPDNN_FORWARDING=disabled MIOPEN_HIPDNN_LOG_ROUTING=1 "$demo"
echo
# The hipDNN backend is found through hipDNN's own variable (an absolute
# directory); the test bed's backend stands in for libhipdnn_backend.so.
export HIPDNN_BACKEND_LIBRARY_PATH="$PWD/$BUILD/test/mini-hipdnn/lib"
trace="$BUILD/demo/enabled-trace.txt"
echo "== 3. wrapper, MIOPEN_HIPDNN_FORWARDING=enabled: the convolution runs on hipDNN (reference engine)"
MIOPEN_HIPDNN_FORWARDING=enabled MIOPEN_HIPDNN_LOG_ROUTING=1 MIOPEN_HIPDNN_EXIT_SUMMARY=1 "$demo" 2> >(tee "$trace" >&2)
hits=$(grep -c 'plan cache hit' "$trace" || true)
misses=$(grep -c 'plan cache miss' "$trace" || true)
forwarded=$(grep -c -- '-> hipDNN' "$trace" || true)
echo "   forwarded calls: $forwarded; plan cache: $hits hit(s), $misses miss(es)"
[ "$forwarded" -gt 0 ] || { echo "demo: nothing was forwarded to hipDNN" >&2; exit 1; }
echo
echo "== 4. the same, on hipDNN's MIOpen provider engine (which calls MIOpen Private's _impl entry points)"
HIPDNN_PLUGIN_DIR="$PWD/$BUILD/test/mini-hipdnn/provider_plugins" \
  MIOPEN_HIPDNN_FORWARDING=enabled MIOPEN_HIPDNN_LOG_ROUTING=1 "$demo"
echo
echo "== 5. enabled, but MIOPEN_DISABLE_HIPDNN_FOR=* (the rollback switch): everything on MIOpen Private"
MIOPEN_DISABLE_HIPDNN_FOR='*' MIOPEN_HIPDNN_FORWARDING=enabled MIOPEN_HIPDNN_LOG_ROUTING=1 "$demo"
echo
echo "== 6. wrapper, default environment (silent, byte-identical stderr to the baseline)"
"$demo"
