#!/usr/bin/env bash
# Wrapper overhead report: ns/call (wall clock, noisy), instructions/call
# (callgrind, exact) and RSS, baseline vs wrapper (disabled, enabled).
# Usage: bench/run.sh [BUILD_DIR]   (after scripts/demo.sh or a build + install)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=$(realpath -m "${1:-build}")
INSTALL="$BUILD/install"
OUT="$BUILD/bench"
cmake --install "$BUILD" --prefix "$INSTALL" >/dev/null   # always: a stale install would measure old stubs
cmake -S bench -B "$OUT" -DCMAKE_PREFIX_PATH="$INSTALL" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$OUT" -j 2 >/dev/null
bin="$OUT/passthrough"
base="$BUILD/baseline"

run() { # label, env...
  local label=$1; shift
  env "$@" "$bin" 20000000 | sed "s/^/$label /"
}
instr() { # instructions for N calls under callgrind
  local n=$1; shift
  env "$@" valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" "$n" 2>&1 |
    sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
per_call() { # (instr(2N) - instr(N)) / N, so start-up cost cancels out
  local a b; a=$(instr 100000 "$@"); b=$(instr 200000 "$@")
  echo "scale=2; ($b - $a) / 100000" | bc
}

{
  echo "# Wrapper pass-through benchmark ($(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores)"
  echo
  echo '```'
  run "baseline        " LD_LIBRARY_PATH="$base"
  run "wrapper disabled" MIOPEN_HIPDNN_FORWARDING=disabled
  run "wrapper enabled " MIOPEN_HIPDNN_FORWARDING=enabled
  echo '```'
  echo
  echo "instructions per miopenGetVersion call (callgrind, (I(200k)-I(100k))/100k):"
  echo
  b=$(per_call LD_LIBRARY_PATH="$base"); d=$(per_call MIOPEN_HIPDNN_FORWARDING=disabled)
  e=$(per_call MIOPEN_HIPDNN_FORWARDING=enabled)
  echo "| library | instructions/call | wrapper overhead |"
  echo "| --- | --- | --- |"
  echo "| baseline | $b | - |"
  echo "| wrapper, disabled | $d | $(echo "$d - $b" | bc) |"
  echo "| wrapper, enabled (routed path, Phase 1) | $e | $(echo "$e - $b" | bc) |"
} | tee "$OUT/report.md"
echo "report: $OUT/report.md"
