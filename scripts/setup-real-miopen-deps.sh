#!/usr/bin/env bash
# setup-real-miopen-deps.sh -- what building a real MIOpen tree with the
# HIPNOGPU backend (no GPU, no ROCm install) needs on Debian 12, for
# scripts/real-miopen-check.sh. Kept apart from setup-deps.sh so that the
# project's own setup stays fast. Run as root. Idempotent.
#
#   scripts/setup-real-miopen-deps.sh [--half-include DIR] [--prefix DIR]
#
# Installs / provides:
#   * Debian 12 packages: rocm-cmake, HIP 5.2 (libamdhip64-dev, hipcc), comgr,
#     HSA runtime, rocRAND, clang-15, Boost filesystem/system, SQLite, bzip2,
#     nlohmann-json, ccache (the adopted tree is built with the pre-wrapper
#     tree's compiler cache);
#   * <prefix>/trixie/usr/include: the HIP 5.7.1 and rocBLAS 5.5.1 headers of
#     Debian 13 (unpacked, not installed). Debian 12's HIP 5.2 lacks
#     hipModuleLaunchCooperativeKernel (hipoc/hipoc_kernel.cpp) and has no
#     rocBLAS headers (nogpu/handle.cpp declares a rocBLAS handle even with
#     MIOPEN_USE_ROCBLAS=OFF);
#   * <prefix>/half-include/half/half.hpp: MIOpen's <half/half.hpp>, the
#     ROCm/half repository's include/half.hpp (not packaged). Taken from
#     --half-include DIR (DIR/half/half.hpp or DIR/half.hpp), else downloaded
#     at a pinned commit and checked against its SHA-256.
#
# Prefix: --prefix, else $MIOPEN_WRAP_REAL_DEPS_PREFIX, else
# /opt/miopen-wrap-tools/real-miopen. Prints `prefix: <dir>` last.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/trixie-debs.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt-install.sh"

PREFIX="${MIOPEN_WRAP_REAL_DEPS_PREFIX:-/opt/miopen-wrap-tools/real-miopen}"
HALF_SRC=""
HALF_COMMIT=a3a7700788eafbf109d37b6f9355e8033594bbd6
HALF_SHA256=d659163a391183c877d8ea91e8bb683cd9b7286429f2fb31fd24ce4e4cace730
HALF_URL="https://raw.githubusercontent.com/ROCm/half/$HALF_COMMIT/include/half.hpp"

while [ $# -gt 0 ]; do
  case "$1" in
    --half-include) HALF_SRC=$2; shift 2 ;;
    --prefix) PREFIX=$2; shift 2 ;;
    -h|--help) sed -n '2,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "setup-real-miopen-deps: unknown argument $1" >&2; exit 2 ;;
  esac
done

apt_pkgs=(rocm-cmake libamdhip64-dev hipcc libamd-comgr-dev libhsa-runtime-dev librocrand-dev clang-15
          libboost-filesystem-dev libboost-system-dev libsqlite3-dev libbz2-dev bzip2 nlohmann-json3-dev
          ccache curl ca-certificates)
apt_install_missing setup-real-miopen-deps "${apt_pkgs[@]}"

TRIXIE=$PREFIX/trixie
if [ ! -f "$TRIXIE/usr/include/hip/hip_version.h" ] || [ ! -f "$TRIXIE/usr/include/rocblas/rocblas.h" ]; then
  echo "setup-real-miopen-deps: unpacking HIP 5.7 and rocBLAS headers from Debian trixie into $TRIXIE"
  trixie_unpack "$TRIXIE" libamdhip64-dev librocblas-dev
fi
grep -q 'HIP_VERSION_MINOR 7' "$TRIXIE/usr/include/hip/hip_version.h" || {
  echo "setup-real-miopen-deps: $TRIXIE/usr/include/hip/hip_version.h is not HIP 5.7" >&2; exit 1; }

HALF=$PREFIX/half-include/half/half.hpp
if [ -n "$HALF_SRC" ]; then
  src=$HALF_SRC/half/half.hpp
  [ -f "$src" ] || src=$HALF_SRC/half.hpp
  [ -f "$src" ] || { echo "setup-real-miopen-deps: --half-include $HALF_SRC holds neither half/half.hpp nor half.hpp" >&2; exit 2; }
  mkdir -p "$(dirname "$HALF")"; cp "$src" "$HALF"
elif [ ! -f "$HALF" ]; then
  echo "setup-real-miopen-deps: downloading ROCm/half include/half.hpp at $HALF_COMMIT"
  mkdir -p "$(dirname "$HALF")"
  if ! curl -sSfL -o "$HALF.tmp" "$HALF_URL" || ! echo "$HALF_SHA256  $HALF.tmp" | sha256sum -c --quiet; then
    rm -f "$HALF.tmp"
    echo "setup-real-miopen-deps: could not get $HALF_URL (SHA-256 $HALF_SHA256)." >&2
    echo "  Pass --half-include DIR, DIR holding half.hpp from https://github.com/ROCm/half (include/half.hpp)." >&2
    exit 1
  fi
  mv "$HALF.tmp" "$HALF"
fi
echo "setup-real-miopen-deps: half.hpp sha256 $(sha256sum "$HALF" | cut -d' ' -f1)"
echo "prefix: $PREFIX"
