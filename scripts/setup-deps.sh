#!/usr/bin/env bash
# Installs every build/test dependency of this project on Debian 12 (run as root).
# Idempotent: each step checks before it acts, so a second run only verifies.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/lib/trixie-debs.sh"
. "$(dirname "${BASH_SOURCE[0]}")/lib/apt-install.sh"

PREFIX="${MIOPEN_WRAP_TOOLS_PREFIX:-/opt/miopen-wrap-tools}"
CORROSION_VERSION_MIN="0.5"

apt_pkgs=(cmake g++ make pkg-config libclang-dev clang libgtest-dev valgrind abigail-tools patchelf python3 bc)
apt_install_missing setup-deps "${apt_pkgs[@]}"

# Corrosion is only packaged in trixie. It is plain CMake files, so we fetch the
# .deb with a private apt state (the system's sources stay bookworm) and unpack it.
if [ ! -f "$PREFIX/usr/lib/x86_64-linux-gnu/cmake/Corrosion/CorrosionConfig.cmake" ] &&
   [ -z "$(find "$PREFIX" -name CorrosionConfig.cmake 2>/dev/null | head -n1)" ]; then
  echo "setup-deps: fetching Corrosion (>= $CORROSION_VERSION_MIN) from Debian trixie into $PREFIX"
  trixie_unpack "$PREFIX" corrosion
fi
corrosion_cfg=$(find "$PREFIX" -name CorrosionConfig.cmake | head -n1)
[ -n "$corrosion_cfg" ] || { echo "setup-deps: Corrosion not found under $PREFIX" >&2; exit 1; }

# Rust: the machine's rustup toolchain is used as-is; nothing to install if it is there.
command -v cargo >/dev/null || { echo "setup-deps: cargo not found; install a Rust toolchain (rustup) first" >&2; exit 1; }
echo "setup-deps: ok (Corrosion: $(dirname "$corrosion_cfg"))"
