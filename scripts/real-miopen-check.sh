#!/usr/bin/env bash
# real-miopen-check.sh -- build a real MIOpen tree twice, as it is
# (pre-wrapper) and adopted (scripts/adopt-miopen-tree.sh), the same way with
# the HIPNOGPU backend (no GPU, no ROCm install), install both, and check the
# real pair:
#   1. every gate of `miopen-wrap check all` on the adopted install, with the
#      pre-wrapper libMIOpen.so as the baseline;
#   2. test/real-miopen/consumer.cpp (public API calls that need no device),
#      built against each install, run three ways -- pre binary on the
#      pre-wrapper library, the same binary on the wrapper (drop-in), the
#      adopted binary on the wrapper -- stdout compared byte for byte; and
#      MIOpen's own log of it (MIOPEN_ENABLE_LOGGING=1, MIOPEN_LOG_LEVEL=6)
#      on both sides (test/real-miopen/compare_logs.py);
#   3. forwarding enabled on the adopted pair, with the mini hipDNN backend
#      (test/mini-hipdnn, built here; its reference engine computes on host
#      memory) standing in for libhipdnn_backend.so:
#      test/real-miopen/forwarded_consumer.cpp (the convolution family, fp32
#      and fp16, NCHW and NHWC, groups, 2-D and 3-D, legacy / Find /
#      immediate / workspace calls, every result checked against its own
#      reference), the routing trace, the exit summary and MIOpen's driver
#      command lines compared with the disabled run's
#      (test/real-miopen/check_forwarded.py); with --forward-groups naming
#      batchnorm, its batchnorm inference, training and backward cases (legacy and _V2) too;
#   4. facts for docs/adopting-in-miopen.md ("Real MIOpen"): export counts and
#      differences, sizes, SONAME / DT_NEEDED / version nodes, RSS of the
#      consumer process, build times (report.md and report.json).
#
#   scripts/real-miopen-check.sh <miopen-tree> [--work-dir DIR] [--half-include DIR]
#                                [--jobs N] [--opt-level N] [--skip-deps] [--from-install]
#                                [--forward-groups LIST]
#   scripts/real-miopen-check.sh --ctest [<miopen-tree>] --work-dir DIR ...
#
#   <miopen-tree>      a MIOpen checkout (left untouched; copied). Git LFS
#                      pointer files in place of src/kernels/*.kdb.bz2 are fine.
#   --work-dir DIR     where everything goes (default /tmp/real-miopen-check);
#                      DIR/ccache is the compiler cache both builds share
#   --half-include DIR DIR/half.hpp or DIR/half/half.hpp is ROCm/half's
#                      include/half.hpp (else setup-real-miopen-deps.sh
#                      downloads it)
#   --jobs N           parallel build jobs (default: nproc)
#   --opt-level N      compile both trees with -ON instead of the Release
#                      build's -O3 (0 compiles fastest; the
#                      gates and the consumer compare the trees, not speed)
#   --skip-deps        do not run scripts/setup-real-miopen-deps.sh
#   --from-install     reuse DIR's installs; only run the checks and report
#   --forward-groups LIST  the adopted build's compile-time forwarding set
#                      (MIOPEN_HIPDNN_FORWARD_GROUPS, comma-separated, e.g.
#                      convolution,fusion,find2,batchnorm; default: the
#                      generator's default set)
#   --ctest            the tree may also come from $MIOPEN_WRAP_REAL_MIOPEN_TREE;
#                      with neither, print why and exit 77 (CTest: skipped)
# Environment: MIOPEN_WRAP_BIN, a built miopen-wrap (else the adoption builds
# one); MIOPEN_WRAP_REAL_DEPS_PREFIX, where the dependencies go.
# Exit status: 0 every step passed, 1 a step failed, 2 usage, 77 skipped.
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
usage() { awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "${BASH_SOURCE[0]}"; exit 2; }

SRC=""; WORK=/tmp/real-miopen-check; HALF_SRC=""; JOBS=$(nproc); OPT=""; DEPS=1; FROM_INSTALL=0; CTEST=0; GROUPS_SET=""
while [ $# -gt 0 ]; do
  case "$1" in
    --work-dir) WORK=$2; shift 2 ;;
    --half-include) HALF_SRC=$2; shift 2 ;;
    --jobs) JOBS=$2; shift 2 ;;
    --opt-level) OPT=$2; shift 2 ;;
    --skip-deps) DEPS=0; shift ;;
    --from-install) FROM_INSTALL=1; shift ;;
    --forward-groups) GROUPS_SET=${2//;/,}; shift 2 ;;
    --ctest) CTEST=1; shift ;;
    -h|--help) usage ;;
    -*) echo "real-miopen-check: unknown option $1" >&2; usage ;;
    *) [ -z "$SRC" ] || { echo "real-miopen-check: one tree only" >&2; usage; }; SRC=$1; shift ;;
  esac
done
if [ -z "$SRC" ] && [ $CTEST -eq 1 ]; then
  SRC=${MIOPEN_WRAP_REAL_MIOPEN_TREE:-}
  if [ -z "$SRC" ]; then
    echo "real-miopen-check: SKIPPED: no MIOpen tree given; set MIOPEN_WRAP_REAL_MIOPEN_TREE (environment or" \
         "CMake cache variable) to a MIOpen checkout to build and check the real pair"
    exit 77
  fi
fi
[ -n "$SRC" ] || usage
[ -d "$SRC/src" ] && [ -f "$SRC/include/miopen/miopen.h" ] || {
  echo "real-miopen-check: $SRC is not a MIOpen tree (needs src/ and include/miopen/miopen.h)" >&2; exit 2; }
SRC=$(cd "$SRC" && pwd)
# Physical paths: MIOpen logs its library and database paths resolved, and
# the log comparison names each side's directory as MIOpen prints it.
mkdir -p "$WORK"; WORK=$(cd "$WORK" && pwd -P)
case "$WORK/" in "$SRC/"*) echo "real-miopen-check: the work dir is inside the tree" >&2; exit 2 ;; esac

LOGS=$WORK/logs; mkdir -p "$LOGS"
STEPS=$WORK/steps.tsv; : > "$STEPS"
FACTS=$WORK/facts.tsv; [ $FROM_INSTALL -eq 1 ] && [ -f "$FACTS" ] || : > "$FACTS"
# What a step of this run writes must not come from an earlier run when it fails.
rm -f "$WORK/forwarded.json" "$WORK/elf-facts.json"
[ $FROM_INSTALL -eq 1 ] || rm -f "$LOGS"/*-ccache.tsv
# step NAME STATUS DETAIL -- one line of the report
step() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$STEPS"; echo "real-miopen: [$2] $1${3:+ -- $3}"; }
# fact KEY VALUE -- a number for the report (last value of a key wins)
fact() { printf '%s\t%s\n' "$1" "$2" >> "$FACTS"; }
# run NAME CMD... -- output to logs/NAME.log; on failure its tail to stderr
run() { local n=$1; shift; "$@" > "$LOGS/$n.log" 2>&1; local rc=$?
  [ $rc -eq 0 ] || { echo "real-miopen: $n failed (exit $rc); last lines of $LOGS/$n.log:" >&2; tail -20 "$LOGS/$n.log" >&2; }
  return $rc; }
finish() { python3 -B "$REPO/test/real-miopen/report.py" --work "$WORK"; exit $?; }

PRE=$WORK/pre; ADOPT=$WORK/adopt
DEPS_PREFIX=${MIOPEN_WRAP_REAL_DEPS_PREFIX:-/opt/miopen-wrap-tools/real-miopen}

# --- dependencies ---------------------------------------------------------------
if [ $DEPS -eq 1 ]; then
  deps_args=(--prefix "$DEPS_PREFIX"); [ -n "$HALF_SRC" ] && deps_args+=(--half-include "$HALF_SRC")
  if run deps "$REPO/scripts/setup-real-miopen-deps.sh" "${deps_args[@]}"; then step deps ok "$DEPS_PREFIX"
  else step deps FAIL "see $LOGS/deps.log"; finish; fi
fi
TRIXIE_INC=$DEPS_PREFIX/trixie/usr/include
HALF_DIR=$DEPS_PREFIX/half-include
for need in "$TRIXIE_INC/hip/hip_version.h" "$TRIXIE_INC/rocblas/rocblas.h" "$HALF_DIR/half/half.hpp"; do
  [ -f "$need" ] || { step deps FAIL "$need missing: run scripts/setup-real-miopen-deps.sh"; finish; }
done

# --- the two trees, built the same way ----------------------------------------------
# Both trees sit at <side>/tree with <side>/build next to them, so the compiler
# sees the same relative paths and the adopted build reuses the pre-wrapper
# build's ccache entries for every file the adoption did not change.
export CCACHE_DIR=$WORK/ccache CCACHE_BASEDIR=$WORK CCACHE_NOHASHDIR=1
ulimit -s unlimited  # clang-15 overflows 8 MB of stack on MIOpen's generated kernel.cpp
configure_args=(
  -DCMAKE_BUILD_TYPE=Release -DMIOPEN_BACKEND=HIPNOGPU
  -DCMAKE_C_COMPILER=clang-15 -DCMAKE_CXX_COMPILER=clang++-15
  -DCMAKE_C_COMPILER_LAUNCHER=ccache -DCMAKE_CXX_COMPILER_LAUNCHER=ccache
  # HIP 5.7 and rocBLAS headers from Debian 13 ahead of Debian 12's HIP 5.2
  "-DCMAKE_CXX_FLAGS=-D__HIP_PLATFORM_AMD__=1 -isystem $TRIXIE_INC"
  -DBoost_USE_STATIC_LIBS=OFF -DMIOPEN_USE_MLIR=OFF -DMIOPEN_USE_COMPOSABLEKERNEL=OFF
  -DMIOPEN_USE_ROCBLAS=OFF -DMIOPEN_USE_HIPBLASLT=OFF -DMIOPEN_ENABLE_AI_KERNEL_TUNING=OFF
  -DMIOPEN_ENABLE_AI_IMMED_MODE_FALLBACK=OFF -DMIOPEN_USE_ROCTRACER=OFF -DBUILD_TESTING=OFF
  -DMIOPEN_BUILD_DRIVER=OFF
  # src/nogpu/handle.cpp needs a rocBLAS type even with rocBLAS off: a
  # stand-in for that file only (test/real-miopen/hipnogpu-build-fixes.cmake)
  "-DCMAKE_PROJECT_INCLUDE=$REPO/test/real-miopen/hipnogpu-build-fixes.cmake"
  # the text perf-db's converter (tools/sqlite2txt) needs C++23's
  # static_assert(false) rule, which clang-15 lacks
  -DMIOPEN_USE_SQLITE_PERFDB=ON
  "-DHALF_INCLUDE_DIR=$HALF_DIR")
if [ -n "$OPT" ]; then
  configure_args+=("-DCMAKE_CXX_FLAGS_RELEASE=-O$OPT -DNDEBUG" "-DCMAKE_C_FLAGS_RELEASE=-O$OPT -DNDEBUG")
fi
fact opt_level "${OPT:-3 (Release)}"
# The adopted side only: the pre-wrapper tree has no forwarding set.
adopt_configure_args=()
[ -n "$GROUPS_SET" ] && adopt_configure_args+=("-DMIOPEN_HIPDNN_FORWARD_GROUPS=$GROUPS_SET")
fact forward_groups "${GROUPS_SET:-default}"
FORWARDED_ARGS=()
case ",$GROUPS_SET," in *,batchnorm,*) FORWARDED_ARGS+=(--batchnorm) ;; esac

# build_side NAME DIR [CMAKE-ARG...] -- configure, build and install DIR/tree into DIR/install
build_side() {
  local name=$1 dir=$2 t0 t1 t2 t3
  local extra=("${@:3}")
  rm -rf "$dir/build" "$dir/install"
  ccache -z >/dev/null 2>&1
  t0=$(date +%s)
  run "$name-configure" cmake -S "$dir/tree" -B "$dir/build" "${configure_args[@]}" "${extra[@]}" \
      "-DCMAKE_INSTALL_PREFIX=$dir/install" || { step "$name-build" FAIL "configure (see $LOGS/$name-configure.log)"; return 1; }
  t1=$(date +%s)
  run "$name-build" nice -n 5 cmake --build "$dir/build" -j "$JOBS" || { step "$name-build" FAIL "see $LOGS/$name-build.log"; return 1; }
  t2=$(date +%s)
  run "$name-install" cmake --install "$dir/build" || { step "$name-build" FAIL "install (see $LOGS/$name-install.log)"; return 1; }
  t3=$(date +%s)
  ccache --print-stats > "$LOGS/$name-ccache.tsv" 2>/dev/null
  fact "$name.configure_s" $((t1 - t0)); fact "$name.build_s" $((t2 - t1)); fact "$name.install_s" $((t3 - t2))
  local objs
  objs=$(find "$dir/build/src" -name '*.o' -path '*MIOpen*' | wc -l)
  fact "$name.objects" "$objs"
  step "$name-build" ok "configure $((t1 - t0)) s, build $((t2 - t1)) s ($objs objects, -j $JOBS), install $((t3 - t2)) s"
}

if [ $FROM_INSTALL -eq 0 ]; then
  rm -rf "$PRE/tree"; mkdir -p "$PRE"
  if cp -a "$SRC" "$PRE/tree"; then step pre-tree ok "copy of $SRC"; else step pre-tree FAIL "copy to $PRE/tree"; finish; fi
  build_side pre "$PRE" || finish

  adopt_cmd=("$REPO/scripts/adopt-miopen-tree.sh"); [ -n "${MIOPEN_WRAP_BIN:-}" ] && adopt_cmd=("$MIOPEN_WRAP_BIN" adopt)
  if run adopt "${adopt_cmd[@]}" "$SRC" --work-dir "$ADOPT"; then
    step adopt ok "$(grep -m1 'survivors' "$LOGS/adopt.log" | sed 's/^ *//')"
  else step adopt FAIL "see $LOGS/adopt.log and $ADOPT/logs"; finish; fi
  build_side adopt "$ADOPT" "${adopt_configure_args[@]}" || finish
fi

lib_of() { find "$1/install" -name "$2" \( -type f -o -type l \) | head -n1; }
PRE_LIB=$(lib_of "$PRE" libMIOpen.so.1); WRAPPER=$(lib_of "$ADOPT" libMIOpen.so.1)
PRIVATE=$(lib_of "$ADOPT" libMIOpen_private.so.1)
for f in PRE_LIB WRAPPER PRIVATE; do
  [ -n "${!f}" ] || { step installs FAIL "$f not found under $WORK/*/install"; finish; }
done
step installs ok "baseline $PRE_LIB; wrapper $WRAPPER; private $PRIVATE"

# --- 1. every gate on the real pair ----------------------------------------------------
# scripts/adopt-miopen-tree.sh builds the tool with `cargo run --release` (cargo's target dir).
WRAP_BIN=${MIOPEN_WRAP_BIN:-${CARGO_TARGET_DIR:-$REPO/target}/release/miopen-wrap}
[ -x "$WRAP_BIN" ] || { step gates FAIL "no miopen-wrap at $WRAP_BIN (set MIOPEN_WRAP_BIN)"; finish; }
# The checkers below read the code's facts through it (test/lib/wrapper_test.py).
export MIOPEN_WRAP_BIN="$WRAP_BIN"
run gates "$WRAP_BIN" check all --wrapper "$WRAPPER" --private "$PRIVATE" --baseline "$PRE_LIB" \
    --expect-soname libMIOpen.so.1 --expect-private-soname libMIOpen_private.so.1 \
    --public-include "$ADOPT/install/include" --private-include-subdir miopen_private \
    --impl-sources "$ADOPT/tree/src"
rc=$?
summary=$(tail -n1 "$LOGS/gates.log")
if [ $rc -eq 0 ]; then step gates ok "$summary"; else step gates FAIL "$summary (see $LOGS/gates.log)"; fi

# --- 2. the public-API consumer on both libraries ----------------------------------------
CONS=$WORK/consumer; mkdir -p "$CONS"
# The HIPNOGPU private library leaves HIP symbols undefined (never called on
# these paths): --allow-shlib-undefined.
build_consumer() {  # build_consumer NAME SIDE-DIR
  run "consumer-$1-build" clang++-15 -std=c++17 -O1 -Wall -Wextra -Werror -DMIOPEN_BETA_API=1 -D__HIP_PLATFORM_AMD__=1 \
      -I "$2/install/include" "$REPO/test/real-miopen/consumer.cpp" -o "$CONS/consumer-$1" \
      -L "$(dirname "$(lib_of "$2" libMIOpen.so.1)")" -lMIOpen -Wl,--allow-shlib-undefined
}
# Each run starts from empty user databases and caches: what one run stores
# must not change what the next one finds.
run_consumer() {  # run_consumer OUTNAME BINARY LIBDIR [VAR=VALUE...]
  rm -rf "$CONS/$1.db"; mkdir -p "$CONS/$1.db"
  env LD_LIBRARY_PATH="$3" MIOPEN_USER_DB_PATH="$CONS/$1.db" MIOPEN_CUSTOM_CACHE_DIR="$CONS/$1.db" "${@:4}" \
      "$CONS/consumer-$2" > "$CONS/$1.stdout" 2> "$CONS/$1.stderr"
  local rc=$?
  echo "$rc" > "$CONS/$1.rc"
  fact "consumer.$1.rc" "$rc"
  fact "consumer.$1.vmhwm_kb" "$(awk '/VmHWM/ {print $3}' "$CONS/$1.stderr")"
  fact "consumer.$1.vmrss_kb" "$(awk '/VmRSS/ {print $3}' "$CONS/$1.stderr")"
  return $rc
}
# MIOpen's own log (function calls with their arguments, info messages,
# driver command lines) of the same consumer: twice on the pre-wrapper library
# (what differs between those two runs is compared by shape only), once on the
# adopted pair; test/real-miopen/compare_logs.py says what else may differ.
check_logs() {
  local logging=(MIOPEN_ENABLE_LOGGING=1 MIOPEN_LOG_LEVEL=6 MIOPEN_ENABLE_LOGGING_CMD=1) n r side
  run_consumer log-baseline pre "$(dirname "$PRE_LIB")" "${logging[@]}" \
    && run_consumer log-baseline-again pre "$(dirname "$PRE_LIB")" "${logging[@]}" \
    && run_consumer log-adopted adopt "$(dirname "$WRAPPER")" "${logging[@]}" \
    || { step log-compare FAIL "a logging run failed (exit statuses in $CONS/log-*.rc)"; return; }
  local replace=()
  for side in "$PRE" "$ADOPT"; do replace+=(--replace "$side/install=<install>" --replace "$side/tree=<tree>"); done
  for n in log-baseline log-baseline-again log-adopted; do replace+=(--replace "$CONS/$n.db=<db>"); done
  # The comparison must be able to fail: the adopted log with one entry
  # point logged under its private name (no logger edit) has to differ.
  sed '0,/miopen\([A-Z][A-Za-z0-9]*\)(/s//miopen\1_impl(/' "$CONS/log-adopted.stderr" > "$CONS/log-negative.stderr"
  if cmp -s "$CONS/log-adopted.stderr" "$CONS/log-negative.stderr"; then
    step log-compare-negative FAIL "no function-call line to change in $CONS/log-adopted.stderr"
  elif python3 -B "$REPO/test/real-miopen/compare_logs.py" --baseline "$CONS/log-baseline.stderr" \
       --baseline-again "$CONS/log-baseline-again.stderr" --adopted "$CONS/log-negative.stderr" \
       "${replace[@]}" > "$LOGS/log-compare-negative.log" 2>&1; then
    step log-compare-negative FAIL "a function logged as miopenX_impl compared equal"
  else
    step log-compare-negative ok "a function logged under its _impl name is told apart"
  fi
  if run log-compare python3 -B "$REPO/test/real-miopen/compare_logs.py" --baseline "$CONS/log-baseline.stderr" \
       --baseline-again "$CONS/log-baseline-again.stderr" --adopted "$CONS/log-adopted.stderr" "${replace[@]}"; then
    r=$(head -n1 "$LOGS/log-compare.log" | sed 's/^compare_logs: //'); step log-compare ok "$r"
  else
    step log-compare FAIL "see $LOGS/log-compare.log"
  fi
}
if build_consumer pre "$PRE" && build_consumer adopt "$ADOPT"; then
  step consumer-build ok "test/real-miopen/consumer.cpp against both installs"
  ok=1
  run_consumer baseline pre "$(dirname "$PRE_LIB")" || ok=0
  run_consumer dropin pre "$(dirname "$WRAPPER")" || ok=0
  run_consumer adopted adopt "$(dirname "$WRAPPER")" || ok=0
  lines=$(wc -l < "$CONS/baseline.stdout")
  fact consumer.stdout_lines "$lines"
  fact consumer.stdout_bytes "$(wc -c < "$CONS/baseline.stdout")"
  # The comparison must be able to fail: a copy of the baseline's output with
  # one probe result changed has to differ.
  sed '0,/status=0/s//status=1/' "$CONS/baseline.stdout" > "$CONS/negative.stdout"
  if cmp -s "$CONS/baseline.stdout" "$CONS/negative.stdout"; then
    step consumer-compare-negative FAIL "a changed status line compared equal"
  else
    step consumer-compare-negative ok "a changed status line is told apart"
  fi
  if [ $ok -eq 1 ] && cmp -s "$CONS/baseline.stdout" "$CONS/dropin.stdout" \
       && cmp -s "$CONS/baseline.stdout" "$CONS/adopted.stdout" && [ "$lines" -gt 0 ]; then
    step consumer-compare ok "3 runs, stdout byte-identical ($lines lines, $(tail -n1 "$CONS/baseline.stdout"))"
  else
    step consumer-compare FAIL "exit statuses $(cat "$CONS"/{baseline,dropin,adopted}.rc | tr '\n' ' ')or stdout differs (diff $CONS/baseline.stdout $CONS/dropin.stdout)"
  fi
  check_logs
else
  step consumer-build FAIL "see $LOGS/consumer-*-build.log"
fi

# --- 3. forwarding enabled, the mini hipDNN backend standing in for hipDNN ----------------
check_forwarded() {
  local hipdnn=$WORK/mini-hipdnn adopt_lib
  adopt_lib=$(dirname "$WRAPPER")
  rm -rf "$hipdnn"  # built from this checkout, whatever built it before
  run mini-hipdnn-configure cmake -S "$REPO/test/mini-hipdnn" -B "$hipdnn" -DCMAKE_BUILD_TYPE=Release \
      -DMINI_HIPDNN_BUILD_TESTS=OFF -DMINI_HIPDNN_BUILD_MIOPEN_PROVIDER=OFF \
    && run mini-hipdnn-build cmake --build "$hipdnn" -j "$JOBS" \
    || { step forwarded FAIL "the mini hipDNN backend did not build (see $LOGS/mini-hipdnn-*.log)"; return; }
  run forwarded-consumer-build clang++-15 -std=c++17 -O1 -Wall -Wextra -Werror -DMIOPEN_BETA_API=1 \
      -D__HIP_PLATFORM_AMD__=1 -I "$ADOPT/install/include" "$REPO/test/real-miopen/forwarded_consumer.cpp" \
      -o "$CONS/forwarded_consumer" -L "$adopt_lib" -lMIOpen -Wl,--allow-shlib-undefined \
    || { step forwarded FAIL "see $LOGS/forwarded-consumer-build.log"; return; }
  if run forwarded python3 -B "$REPO/test/real-miopen/check_forwarded.py" --consumer "$CONS/forwarded_consumer" \
       --lib-dir "$adopt_lib" --backend-dir "$hipdnn/lib" --work "$CONS/forwarded" --json "$WORK/forwarded.json" \
       "${FORWARDED_ARGS[@]}"; then
    step forwarded ok "$(head -n1 "$LOGS/forwarded.log" | sed 's/^check_forwarded: //')"
  else
    step forwarded FAIL "$(head -n1 "$LOGS/forwarded.log" | sed 's/^check_forwarded: //') (see $LOGS/forwarded.log)"
  fi
}
check_forwarded

# --- 4. facts --------------------------------------------------------------------------
python3 -B "$REPO/test/real-miopen/elf_facts.py" --baseline "$PRE_LIB" --wrapper "$WRAPPER" --private "$PRIVATE" \
  --out "$WORK/elf-facts.json" > "$LOGS/elf-facts.log" 2>&1 \
  && step elf-facts ok "$WORK/elf-facts.json" || step elf-facts FAIL "see $LOGS/elf-facts.log"
finish
