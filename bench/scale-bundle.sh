#!/usr/bin/env bash
# Copies what bench/scale.py needs on another machine into one folder of real
# files (no symlinks, debug info stripped): the bench binary, this build's
# installed libMIOpen.so.1 and libMIOpen_private.so.1 (lib-this-build/), any
# other install's (lib-LABEL/), the test bed's backend and its dummy engine
# (mini-hipdnn/), the build's test-facts.json (measure.py's environment
# scrub reads it) and the scripts (bench/scale.py, bench/measure.py,
# test/lib/wrapper_test.py and its test-environment.json), so the folder
# runs where the repository is not.
# Run bench/run.sh BUILD --only scale first (it installs the build and builds
# bench/forwarded).
# Usage: bench/scale-bundle.sh BUILD DEST [LABEL=OTHER_INSTALL/lib ...]
set -euo pipefail
BUILD=$(realpath "$1")
DEST=$2
shift 2
copy() { # file folder
  mkdir -p "$2"
  cp -L "$1" "$2/"
  strip --strip-debug "$2/$(basename "$1")"
}
libs() { # install-lib-folder label
  for f in libMIOpen.so.1 libMIOpen_private.so.1; do copy "$1/$f" "$DEST/lib-$2"; done
}
rm -rf "$DEST"
libs "$BUILD/install/lib" this-build
for other in "$@"; do
  libs "${other#*=}" "${other%%=*}"
done
HD="$BUILD/test/mini-hipdnn"
copy "$HD/lib/libhipdnn_backend.so" "$DEST/mini-hipdnn/lib"
copy "$HD/test_plugins/libmini_hipdnn_test_dummy_engine.so" "$DEST/mini-hipdnn/test_plugins"
copy "$BUILD/bench/forwarded" "$DEST"
cp "$BUILD/test-facts.json" "$DEST/"
SRC=$(dirname "$0")/..
mkdir -p "$DEST/bench" "$DEST/test/lib"
cp "$SRC/bench/scale.py" "$SRC/bench/measure.py" "$DEST/bench/"
cp "$SRC/test/lib/wrapper_test.py" "$SRC/test/lib/test-environment.json" "$DEST/test/lib/"
du -sh "$DEST"
