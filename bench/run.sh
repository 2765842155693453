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
HD="$BUILD/test/mini-hipdnn"
cmake -S bench -B "$OUT" -DCMAKE_PREFIX_PATH="$INSTALL" -DCMAKE_BUILD_TYPE=Release \
  -DMINI_HIPDNN_DIR="$PWD/test/mini-hipdnn" -DMINI_HIPDNN_LIB="$HD/lib/libhipdnn_backend.so" >/dev/null
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
ns_mean() { sed -n 's/.*ns_per_call_mean=\([0-9.]*\).*/\1/p'; }
minimum() { printf '%s\n' "$@" | sort -g | head -n 1; }
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
  echo "| wrapper, enabled (routed path: decision + trace check) | $e | $(echo "$e - $b" | bc) |"
  echo
  echo "## Forwarded steady state (engine time excluded)"
  echo
  echo "miopenConvolutionForward through libMIOpen.so with forwarding enabled, plan cache warm, on the"
  echo "test bed's engine that returns at once (MINI_TEST_DUMMY_ENGINE), vs the hipDNN backend alone"
  echo "doing what the wrapper asks of it per call (variant pack + execute on a prebuilt plan)."
  echo "Minimum of 5 interleaved runs of 200000 calls per thread."
  echo
  echo "| threads | through the wrapper (ns/call) | backend alone (ns/call) | wrapper adds (ns/call) |"
  echo "| --- | --- | --- | --- |"
  fwd_env=(MIOPEN_HIPDNN_FORWARDING=enabled HIPDNN_BACKEND_LIBRARY_PATH="$HD/lib"
           HIPDNN_PLUGIN_DIR="$HD/test_plugins" HIPDNN_HEUR_FALLBACK_ENGINE_ORDER=MINI_TEST_DUMMY_ENGINE)
  for t in 1 8; do
    ws=(); bs=()
    for _ in 1 2 3 4 5; do
      ws+=("$(env "${fwd_env[@]}" "$OUT/forwarded" wrapper 200000 "$t" | ns_mean)")
      bs+=("$(env "${fwd_env[@]}" "$OUT/forwarded" backend 200000 "$t" | ns_mean)")
    done
    w=$(minimum "${ws[@]}"); b=$(minimum "${bs[@]}")
    echo "| $t | $w | $b | $(echo "$w - $b" | bc) |"
  done
  echo
  echo "## Cold start: the first convolution of a fresh process"
  echo
  echo "A 1x16x32x32 * 16x16x3x3 fp32 miopenConvolutionForward, timed inside 11 fresh processes per"
  echo "mode (interleaved); enabled includes loading the hipDNN backend and building the plan. With"
  echo "hipDNN's MIOpen provider engine the convolution runs the same MIOpen kernel as disabled (the"
  echo "comparison RFC exit criterion 4 asks for); the reference engine is other CPU code."
  echo
  echo "| mode | median (us) | min | max |"
  echo "| --- | --- | --- | --- |"
  dis=(); en=(); pr=()
  cold() { env "$@" "$OUT/forwarded" coldstart 0 0 2>/dev/null | sed -n 's/coldstart us=//p'; }
  for _ in $(seq 11); do
    dis+=("$(cold MIOPEN_HIPDNN_FORWARDING=disabled)")
    en+=("$(cold MIOPEN_HIPDNN_FORWARDING=enabled HIPDNN_BACKEND_LIBRARY_PATH="$HD/lib")")
    pr+=("$(cold MIOPEN_HIPDNN_FORWARDING=enabled HIPDNN_BACKEND_LIBRARY_PATH="$HD/lib" HIPDNN_PLUGIN_DIR="$HD/provider_plugins")")
  done
  stats() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)], v[1], v[NR]}'; }
  read -r dmed dmin dmax <<<"$(stats "${dis[@]}")"
  read -r emed emin emax <<<"$(stats "${en[@]}")"
  read -r pmed pmin pmax <<<"$(stats "${pr[@]}")"
  echo "| disabled | $dmed | $dmin | $dmax |"
  echo "| enabled, MIOpen provider engine | $pmed | $pmin | $pmax |"
  echo "| enabled, reference engine | $emed | $emin | $emax |"
  echo
  echo "enabled / disabled (medians): provider engine $(echo "scale=2; $pmed / $dmed" | bc)," \
       "reference engine $(echo "scale=2; $emed / $dmed" | bc)"
} | tee "$OUT/report.md"
echo "report: $OUT/report.md"
