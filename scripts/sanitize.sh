#!/usr/bin/env bash
# The sanitizer runs (docs/testing.md, "Sanitizers"): one instrumented tree
# per kind, its tests, and every sanitizer report counted.
#
#   scripts/sanitize.sh address [BUILD_DIR]   ASan + UBSan: the consumers, the
#       differential and fault-class tests, forwarding disabled and enabled on
#       both engines, the hostile backend and the threaded programs
#       (ctest -L 'consumers|differential|forwarding|threads')
#   scripts/sanitize.sh thread [BUILD_DIR]    TSan: the threaded programs
#       (ctest -L threads: the stress run on three configurations, the
#       64-thread first call, the 64 racing backend loads)
#
# BUILD_DIR defaults to build-sanitize-<kind>. Exit 0 only when every test
# passed, no process wrote a sanitizer report, the planted defects
# (test/sanitize/planted.cpp) were reported, and the wrapper's Rust code is
# instrumented.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
kind=${1:-}
build=${2:-build-sanitize-$kind}
start=$(date +%s)
case $kind in
  address)
    labels='consumers|differential|forwarding|threads'
    # The consumers of the installed tree are their own CMake project: these
    # reach it through the environment (CMake reads them at its configure).
    export CFLAGS="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
    export CXXFLAGS=$CFLAGS LDFLAGS="-fsanitize=address,undefined"
    planted=(heap-overflow undefined)
    symbols=(__asan_report_load) ;;
  thread)
    labels='threads'
    planted=(race)
    # __tsan_acquire: forwarding-core's Mutex annotates its lock (src/sync.rs).
    symbols=(__tsan_read __tsan_acquire) ;;
  *) sed -n '2,18p' "$0" >&2; exit 2 ;;
esac

reports=$(mkdir -p "$build" && cd "$build" && pwd)/sanitizer-reports
rm -rf "$reports" && mkdir -p "$reports/planted"
# Reports go to files as well as failing the process: a report in a process
# whose exit status a checker does not look at is still counted.
supp=$ROOT/test/sanitize/suppressions
if [ "$kind" = address ]; then
  export ASAN_OPTIONS="log_path=$reports/asan:detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1"
  export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$reports/ubsan:suppressions=$supp/ubsan.supp"
  export LSAN_OPTIONS="suppressions=$supp/lsan.supp"
else
  # Only TSan's options: the TSan runtime reads UBSAN_OPTIONS too, and a
  # log_path there would name its reports.
  export TSAN_OPTIONS="log_path=$reports/tsan:halt_on_error=0:exitcode=66:second_deadlock_stack=1:suppressions=$supp/tsan.supp"
fi

cmake -S . -B "$build" -DMIOPEN_WRAP_SANITIZE="$kind" >/dev/null
if [ "$kind" = address ]; then
  cmake --build "$build" -j 2
else
  cmake --build "$build" -j 2 --target MIOpen mini_hipdnn_backend mini_hipdnn_reference_engine \
    mini_hipdnn_miopen_provider threads_stress sanitize_threads_consumers sanitize_planted miopen_wrap_test_facts
fi
built=$(date +%s)

status=0
ctest --test-dir "$build" -L "$labels" -j 2 --output-on-failure || status=1

problems=()
# The controls: the tree reports a planted defect, into a file.
# GCC's shared libubsan, beside ASan, writes its reports to stderr whatever
# log_path says (its own copy of the sanitizer runtime never reads the
# option; a static libubsan does): a UBSan report is a line `runtime error:`
# on a process's stderr, and halt_on_error makes that process fail.
for p in "${planted[@]}"; do
  ASAN_OPTIONS="log_path=$reports/planted/$p" UBSAN_OPTIONS="halt_on_error=1:log_path=$reports/planted/$p" \
  TSAN_OPTIONS="log_path=$reports/planted/$p" "$build/test/sanitize/sanitize_planted" "$p" \
    >/dev/null 2>"$reports/planted/$p.stderr" || true
  ls "$reports/planted/$p".[0-9]* >/dev/null 2>&1 || grep -q 'runtime error:' "$reports/planted/$p.stderr" ||
    problems+=("the planted $p was not reported: the tree is not instrumented")
done
# The wrapper's Rust code is instrumented (not only its C++ parts).
runtime=$(find "$build" -name 'libmiopen_abi_runtime.a' -path '*wrapper*' | head -1)
[ -n "$runtime" ] || runtime=$(find "$build" -name 'libmiopen_abi_runtime.a' | head -1)
# (nm's output is read whole: `nm | grep -q` fails under pipefail when grep
# stops reading early.)
undefined=$([ -n "$runtime" ] && nm -u "$runtime" 2>/dev/null || true)
for symbol in "${symbols[@]}"; do
  grep -q " U $symbol" <<<"$undefined" ||
    problems+=("the wrapper's Rust staticlib (${runtime:-not found}) has no $symbol calls: not instrumented")
done
mapfile -t found < <(find "$reports" -maxdepth 1 -type f | sort)
for f in "${found[@]}"; do
  problems+=("report $(basename "$f"): $(grep -m1 -E 'ERROR|WARNING|runtime error' "$f" || head -1 "$f")")
done
# UBSan's reports on the tests' stderr, as CTest logged it (above).
ubsan=$(grep -c 'runtime error:' "$build/Testing/Temporary/LastTest.log" 2>/dev/null || true)
[ "${ubsan:-0}" -eq 0 ] || problems+=("$ubsan UBSan report(s) in the tests' output ($build/Testing/Temporary/LastTest.log)")
[ $status -eq 0 ] || problems+=("ctest -L '$labels' failed in $build")

end=$(date +%s)
echo "sanitize $kind: build $((built - start)) s, tests $((end - built)) s, ${#found[@]} report(s)"
for p in "${problems[@]}"; do echo "FAIL: $p"; done
[ ${#problems[@]} -eq 0 ] && echo "PASS: sanitize $kind" || exit 1
