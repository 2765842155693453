#!/usr/bin/env bash
# adopt-miopen-tree.sh -- put a MIOpen source tree through the whole adoption
# of the MIOpen -> hipDNN forwarding wrapper (RFC 0001) and print one report.
#
#   scripts/adopt-miopen-tree.sh /path/to/MIOpen [--work-dir DIR] [--in-place]
#                                [--no-cmake-patches] [--miopen-wrap BIN]
#                                [--cargo-target-dir DIR] [-I DIR]...
#
# On a copy of the tree (default: <work-dir>/tree) or in place (--in-place):
#   1. miopen-wrap rename --in-place over src/ (public entry points -> _impl)
#   2. miopen-wrap rename --check: a second rename must find nothing due
#   3. miopen-wrap generate into <work-dir>/generated (stubs, miopen_impl.h,
#      export map, manifest, type check), survivors from the rename report
#   4. g++ -fsyntax-only: miopen_impl.h and impl_typecheck.cpp against the
#      tree's miopen.h (parse-only stand-ins for config.h/export.h/HIP)
#   5. cargo build -p miopen-abi-runtime --release with the generated stubs
#   6. src_patches (unless --no-cmake-patches): the CMake edits, then a
#      second run that must change nothing
# Exit status: 0 when every step passed, 1 otherwise (the report says which).
#
# Options:
#   --work-dir DIR          where the copy, generated files, reports and cargo
#                           output go (default: a new /tmp/adopt-miopen.XXXXXX)
#   --in-place              edit the tree itself instead of a copy
#   --no-cmake-patches      skip step 6 (trees without MIOpen's CMake layout)
#   --miopen-wrap BIN       use this miopen-wrap instead of building it
#   --cargo-target-dir DIR  cargo's target dir for the stub build
#                           (default: <work-dir>/cargo-target)
#   -I DIR                  extra include dir for parsing the header (before
#                           the stand-ins; e.g. a configured build's include/)
set -uo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
STANDIN=$REPO/src_patches/standin

usage() { sed -n '2,31p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 2; }

SRC=""; WORK=""; IN_PLACE=0; CMAKE_PATCHES=1; WRAP_BIN=""; CARGO_TGT=""; EXTRA_I=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work-dir) WORK=$2; shift 2 ;;
    --work-dir=*) WORK=${1#*=}; shift ;;
    --in-place) IN_PLACE=1; shift ;;
    --no-cmake-patches) CMAKE_PATCHES=0; shift ;;
    --miopen-wrap) WRAP_BIN=$2; shift 2 ;;
    --cargo-target-dir) CARGO_TGT=$2; shift 2 ;;
    -I) EXTRA_I+=("$2"); shift 2 ;;
    -I*) EXTRA_I+=("${1#-I}"); shift ;;
    -h|--help) usage ;;
    -*) echo "adopt-miopen-tree: unknown option $1" >&2; usage ;;
    *) [ -z "$SRC" ] || { echo "adopt-miopen-tree: one tree only" >&2; usage; }; SRC=$1; shift ;;
  esac
done
[ -n "$SRC" ] || usage
[ -d "$SRC/src" ] && [ -f "$SRC/include/miopen/miopen.h" ] || {
  echo "adopt-miopen-tree: $SRC is not a MIOpen tree (needs src/ and include/miopen/miopen.h)" >&2; exit 2; }
SRC=$(cd "$SRC" && pwd)
if [ -z "$WORK" ]; then WORK=$(mktemp -d /tmp/adopt-miopen.XXXXXX); fi
mkdir -p "$WORK"; WORK=$(cd "$WORK" && pwd)
CARGO_TGT=${CARGO_TGT:-$WORK/cargo-target}
STEPS=$WORK/steps.tsv; : > "$STEPS"; LOGS=$WORK/logs; mkdir -p "$LOGS"
export PYTHONDONTWRITEBYTECODE=1

# step NAME STATUS DETAIL -- one line of the final report
step() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$STEPS"; echo "adopt: [$2] $1${3:+ -- $3}"; }
# run NAME CMD... -- run with output to logs/NAME.log; returns the command's status
run() { local n=$1; shift; "$@" > "$LOGS/$n.log" 2>&1; local rc=$?
  [ $rc -eq 0 ] || { echo "adopt: $n failed (exit $rc); last lines of $LOGS/$n.log:" >&2; tail -20 "$LOGS/$n.log" >&2; }
  return $rc; }

# --- the tree ---------------------------------------------------------------
if [ $IN_PLACE -eq 1 ]; then
  TREE=$SRC; step tree ok "in place: $TREE"
else
  TREE=$WORK/tree
  if [ "$TREE" = "$SRC" ]; then echo "adopt-miopen-tree: the work dir holds the source tree" >&2; exit 2; fi
  rm -rf "$TREE"
  if cp -a "$SRC" "$TREE"; then step tree ok "copy of $SRC at $TREE"; else step tree FAIL "copy to $TREE"; fi
fi
HEADER=$TREE/include/miopen/miopen.h
INC=(-I "$TREE/include")
for d in "${EXTRA_I[@]}"; do INC+=(-I "$d"); done
INC+=(-I "$STANDIN/miopen-include" -I "$STANDIN/hip-include")

# --- miopen-wrap ----------------------------------------------------------------
if [ -n "$WRAP_BIN" ] && [ ! -x "$WRAP_BIN" ]; then
  echo "adopt: --miopen-wrap $WRAP_BIN does not exist (yet); building miopen-wrap instead" >&2
  WRAP_BIN=""
fi
if [ -z "$WRAP_BIN" ]; then
  if run build-miopen-wrap env CARGO_TARGET_DIR="$CARGO_TGT" cargo build -p miopen-wrap --release \
       --manifest-path "$REPO/Cargo.toml"; then
    WRAP_BIN=$CARGO_TGT/release/miopen-wrap
  fi
fi
if [ -n "$WRAP_BIN" ] && [ -x "$WRAP_BIN" ]; then step miopen-wrap ok "$WRAP_BIN"
else step miopen-wrap FAIL "no miopen-wrap binary"; WRAP_BIN=false; fi

# --- 1. rename in place over src/ -------------------------------------------------
REN=$WORK/rename-report.json; REN2=$WORK/rename-check-report.json
rm -f "$REN" "$REN2"
run rename "$WRAP_BIN" rename --header "$HEADER" "${INC[@]}" --source "$TREE/src" --in-place --report "$REN"
rc=$?
case $rc in
  0) step rename ok "src/ renamed in place" ;;
  1) step rename FAIL "collisions (see $LOGS/rename.log)" ;;
  *) step rename FAIL "exit $rc (see $LOGS/rename.log)" ;;
esac

# --- 2. second rename: nothing due ------------------------------------------------
run rename-check "$WRAP_BIN" rename --header "$HEADER" "${INC[@]}" --source "$TREE/src" --check --report "$REN2"
rc=$?
if [ $rc -eq 0 ]; then step rename-check ok "nothing due"
else step rename-check FAIL "exit $rc (see $LOGS/rename-check.log)"; fi

# --- 3. generate ---------------------------------------------------------------
GEN=$WORK/generated; rm -rf "$GEN"
gen_args=(generate --header "$HEADER" "${INC[@]}" --version-node MIOPEN_HIP_1 --out-dir "$GEN")
[ -f "$REN" ] && gen_args+=(--rename-report "$REN")
if run generate "$WRAP_BIN" "${gen_args[@]}"; then step generate ok "$(tail -1 "$LOGS/generate.log")"
else step generate FAIL "see $LOGS/generate.log"; fi

# --- 4. impl header + type check ------------------------------------------------
CXX=${CXX:-g++}
tc_inc=(-I "$GEN/include" "${INC[@]}")
if [ -f "$GEN/impl_typecheck.cpp" ] \
   && run impl-header sh -c 'printf "#include <miopen/miopen_impl.h>\n" | "$0" -std=c++17 -fsyntax-only -DMIOPEN_BETA_API=1 "$@" -x c++ -' "$CXX" "${tc_inc[@]}" \
   && run typecheck "$CXX" -std=c++17 -fsyntax-only -DMIOPEN_BETA_API=1 "${tc_inc[@]}" "$GEN/impl_typecheck.cpp"; then
  step typecheck ok "miopen_impl.h alone and impl_typecheck.cpp ($(grep -c static_assert "$GEN/impl_typecheck.cpp") static_asserts) compile with $CXX -std=c++17 -DMIOPEN_BETA_API=1"
else step typecheck FAIL "see $LOGS/impl-header.log / $LOGS/typecheck.log"; fi

# --- 5. the Rust stubs ------------------------------------------------------------
if [ -f "$GEN/stubs.rs" ] && run stubs-build env MIOPEN_WRAP_GENERATED_DIR="$GEN" CARGO_TARGET_DIR="$CARGO_TGT" \
     cargo build -p miopen-abi-runtime --release --manifest-path "$REPO/Cargo.toml"; then
  LIB=$CARGO_TGT/release/libmiopen_abi_runtime.a
  n=$(nm -g --defined-only "$LIB" 2>/dev/null | awk '$2=="T" && $3 ~ /^miopen/ {print $3}' | sort -u | wc -l)
  printf '%s\n' "$n" > "$WORK/stubs-defined.txt"
  step stubs ok "cargo build -p miopen-abi-runtime --release: $n miopen* functions defined in libmiopen_abi_runtime.a"
else step stubs FAIL "see $LOGS/stubs-build.log"; fi

# --- 6. src_patches ---------------------------------------------------------------
if [ $CMAKE_PATCHES -eq 1 ]; then
  if run src-patches python3 "$REPO/src_patches/apply_src_patches.py" "$TREE" --json "$WORK/src-patches.json" \
       --wrap-source-dir "$REPO"; then
    step src-patches ok "$(tail -1 "$LOGS/src-patches.log")"
    if [ -f "$REN" ] && [ -d "$TREE/cmake" ]; then
      # the build reads survivors from here (src_patches/cmake/MIOpenWrapAdopt.cmake)
      cp "$REN" "$TREE/cmake/miopen-wrap-rename-report.json"
    fi
    if run src-patches-check python3 "$REPO/src_patches/apply_src_patches.py" "$TREE" --check \
         --json "$WORK/src-patches-check.json" --wrap-source-dir "$REPO"; then
      step src-patches-check ok "second run: $(tail -1 "$LOGS/src-patches-check.log")"
    else step src-patches-check FAIL "second run would still change the tree (see $LOGS/src-patches-check.log)"; fi
  else step src-patches FAIL "$(grep -m1 'FAILED' "$LOGS/src-patches.log" || echo "see $LOGS/src-patches.log")"; fi
else
  step src-patches skipped "--no-cmake-patches"
fi

# --- the report ---------------------------------------------------------------------
python3 - "$WORK" "$TREE" "$SRC" <<'PY'
import json, os, sys
work, tree, src = sys.argv[1:4]
def load(name):
    p = os.path.join(work, name)
    try:
        with open(p) as f: return json.load(f)
    except Exception: return None
steps = [l.rstrip("\n").split("\t", 2) for l in open(os.path.join(work, "steps.tsv"))]
st = {s[0]: s for s in steps}
r, r2 = load("rename-report.json"), load("rename-check-report.json")
man = load("generated/manifest.json")
sp, sp2 = load("src-patches.json"), load("src-patches-check.json")
ok = all(s[1] in ("ok", "skipped") for s in steps)
out = {"source": src, "tree": tree, "work_dir": work, "ok": ok, "steps": {s[0]: {"status": s[1], "detail": s[2]} for s in steps}}
L = []
L.append("=" * 78)
L.append(f"MIOpen adoption report: {src}")
L.append(f"  tree: {tree}")
L.append(f"  work dir: {work}")
if r:
    pn, d, la = r["public_names"], r["definitions_renamed"], r["left_alone_in_strings_comments"]
    L.append(f"  public names in miopen.h:      {pn['total']} ({pn['non_beta']} without beta, {pn['beta']} beta); "
             f"{len(r['public_names_without_definition'])} without a definition in src/")
    L.append(f"  definitions renamed to _impl:  {d['total']} (extern \"C\" {d['extern_c']}, extern \"C\" block {d['extern_c_block']}, "
             f"bare {d['bare']}; {d['with_miopen_export']} with MIOPEN_EXPORT; incl. {d['survivors']} survivors)")
    L.append(f"  internal call sites renamed:   {r['call_sites_renamed']} (+ {r['declarations_renamed']} declarations, "
             f"{r['blocks']['blocks_written']} private declaration blocks) in {r['files_touched']} of {r['files_scanned']} files")
    if r.get("already_renamed_occurrences"):
        L.append(f"  already in _impl form:         {r['already_renamed_occurrences']} occurrences (tree adopted before)")
    L.append(f"  strings/comments left alone:   {la['occurrences']} occurrences in {la['tokens']} tokens "
             f"({la['string_tokens']} strings, {la['comment_tokens']} comments)")
    L.append(f"  survivors (exported C, not in header): {len(r['survivors'])}"
             + (": " + ", ".join(s["name"] for s in r["survivors"]) if r["survivors"] else ""))
    L.append(f"  collisions:                    {len(r['collisions'])}"
             + (": " + ", ".join(c["impl_name"] for c in r["collisions"]) if r["collisions"] else ""))
    if r.get("func_name_warnings"):
        L.append(f"  note: {len(r['func_name_warnings'])} renamed functions log their own name via __func__ & co. (now the _impl name)")
    out["rename"] = {k: r[k] for k in ("public_names", "definitions_renamed", "call_sites_renamed", "declarations_renamed",
                                       "files_touched", "files_scanned", "left_alone_in_strings_comments", "collisions")}
    out["rename"]["survivors"] = [s["name"] for s in r["survivors"]]
else:
    L.append("  rename: no report (rename did not run to completion)")
stubs_n = None
try: stubs_n = int(open(os.path.join(work, "stubs-defined.txt")).read())
except Exception: pass
if man:
    eps = man.get("entry_points", [])
    L.append(f"  stubs generated:               {len(eps)} entry points ({sum(1 for e in eps if e.get('beta'))} beta)"
             + (f" + {len(man.get('survivors', []))} survivors" if isinstance(man.get('survivors'), list) else "")
             + f"; {st.get('stubs', ['', 'not run'])[1]}: " + (f"{stubs_n} defined in the compiled staticlib" if stubs_n is not None else "not compiled"))
    out["stubs_generated"] = len(eps); out["stubs_compiled"] = stubs_n
L.append(f"  impl header / type check:      {st.get('typecheck', ['', 'not run'])[1]}")
if sp:
    L.append(f"  src_patches:                   " + (f"applied ({sp['changes']} change(s) in {sp['files_changed']} file(s))"
             if sp['changes'] else "already applied (0 changes)"))
    for s in sp["steps"]:
        L.append(f"      {s['id']:<19} {s['status']:<8} {s['file']}" + (f" ({s['changes']})" if s['changes'] else ""))
elif "src-patches" in st:
    L.append(f"  src_patches:                   {st['src-patches'][1]} -- {st['src-patches'][2]}")
sec = []
if r2 is not None: sec.append(f"rename {r2['files_touched']} file(s) due")
if sp2 is not None: sec.append(f"src_patches {sp2['changes']} change(s) due")
L.append(f"  second run:                    " + ("; ".join(sec) if sec else "not run"))
out["second_run"] = {"rename_files_due": r2["files_touched"] if r2 else None, "src_patches_changes_due": sp2["changes"] if sp2 else None}
L.append("  steps: " + ", ".join(f"{s[0]}={s[1]}" for s in steps))
L.append(f"RESULT: {'PASS' if ok else 'FAIL'}")
L.append("=" * 78)
print("\n".join(L))
with open(os.path.join(work, "adopt-report.json"), "w") as f: json.dump(out, f, indent=2)
sys.exit(0 if ok else 1)
PY
