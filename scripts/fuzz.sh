#!/usr/bin/env bash
# The fuzz targets of rust/fuzz-targets under libFuzzer, with AddressSanitizer
# and overflow checks (docs/testing.md, "Fuzzing"). What `cargo fuzz` does,
# without needing cargo-fuzz installed: stable rustc takes the nightly flags
# with RUSTC_BOOTSTRAP=1.
#
#   scripts/fuzz.sh build                  build every target (fuzz/target/...)
#   scripts/fuzz.sh run TARGET [SECONDS] [-- LIBFUZZER ARGS]
#                                          fuzz one target (default 600 s) on a
#                                          copy of its corpus; new inputs stay in
#                                          fuzz/work/TARGET (merge them into
#                                          fuzz/corpus/TARGET with -merge=1 to keep)
#   scripts/fuzz.sh check [SECONDS]        every target for SECONDS (default 10)
#                                          each: the suite's bounded run; prints
#                                          executions and coverage per target
#
# FUZZ_TARGET_DIR moves the build (default fuzz/target).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
TRIPLE=$(rustc -vV | sed -n 's/^host: //p')
export CARGO_TARGET_DIR=${FUZZ_TARGET_DIR:-$ROOT/fuzz/target}
BIN=$CARGO_TARGET_DIR/$TRIPLE/release
# Every binary but the negative control's (fuzz/fuzz_targets/planted.rs).
TARGETS=$(sed -n 's/^name = "\([a-z]*\)"$/\1/p' fuzz/Cargo.toml | grep -v -e '^miopen' -e '^planted$')

build() {
  # cargo-fuzz's flags: SanitizerCoverage for libFuzzer's feedback, ASan,
  # debug assertions and overflow checks (a wrapped size is a finding).
  # --target keeps them off build scripts and proc macros. The standard
  # library is the toolchain's prebuilt one (no rust-src to rebuild it):
  # its own code is neither instrumented nor covered (docs/testing.md).
  RUSTC_BOOTSTRAP=1 RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Zsanitizer=address \
-Cunsafe-allow-abi-mismatch=sanitizer -Cdebug-assertions -Coverflow-checks -Cforce-frame-pointers" \
    cargo build --quiet --release --locked --manifest-path fuzz/Cargo.toml --target "$TRIPLE" --bins
}

# One bounded run: libFuzzer on a scratch copy of the corpus (the committed
# corpus is never written), its final stats line kept.
run_target() {
  local target=$1 seconds=$2; shift 2
  local work=$ROOT/fuzz/work/$target
  mkdir -p "$work"
  cp -n fuzz/corpus/"$target"/* "$work"/ 2>/dev/null || true
  ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=1 \
    "$BIN/$target" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$ROOT/fuzz/work/$target-" "$@" "$work" 2>"$ROOT/fuzz/work/$target.log"
}

case ${1:-} in
  build) build ;;
  run)
    [ $# -ge 2 ] || { echo "usage: $0 run TARGET [SECONDS] [-- ARGS]" >&2; exit 2; }
    target=$2; seconds=${3:-600}; shift $(( $# >= 3 ? 3 : 2 )); [ "${1:-}" = -- ] && shift
    build
    run_target "$target" "$seconds" "$@" || { tail -40 "fuzz/work/$target.log"; echo "FAIL: fuzz $target: a finding (fuzz/work/$target-*)"; exit 1; }
    grep -E '^(#[0-9]+.*DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "fuzz/work/$target.log" || true ;;
  check)
    seconds=${2:-10}
    build
    failed=0
    for t in $TARGETS; do
      if run_target "$t" "$seconds"; then
        done_line=$(grep -E '^#[0-9]+\s+DONE' "fuzz/work/$t.log" | tail -1)
        execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "fuzz/work/$t.log")
        echo "fuzz $t: ${seconds}s, $execs executions, $(echo "$done_line" | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+/[^ ]+')"
      else
        echo "FAIL: fuzz $t: a finding (fuzz/work/$t-*):"; tail -30 "fuzz/work/$t.log"; failed=1
      fi
    done
    exit $failed ;;
  *) sed -n '2,21p' "$0" >&2; exit 2 ;;
esac
