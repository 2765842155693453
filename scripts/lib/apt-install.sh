# apt-install.sh -- sourced by the setup scripts: install the Debian packages
# that are not installed yet, and nothing else (a second run only checks).
#
#   apt_install_missing LABEL PACKAGE...   LABEL prefixes the one line printed

apt_install_missing() {
  local label=$1; shift
  local missing=() p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ "${#missing[@]}" -gt 0 ] || return 0
  echo "$label: installing ${missing[*]}"
  DEBIAN_FRONTEND=noninteractive apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}
