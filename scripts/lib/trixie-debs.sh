# trixie-debs.sh -- sourced by the setup scripts: unpack Debian 13 "trixie"
# packages into a private prefix on a Debian 12 machine. The system's apt
# sources and dpkg database stay untouched (private apt state in a temp dir).
#
#   trixie_unpack PREFIX PACKAGE...   download PACKAGE.deb from trixie and
#                                     `dpkg -x` each into PREFIX

trixie_unpack() {
  local prefix=$1; shift
  local state rc=0
  state=$(mktemp -d)
  mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/etc/preferences.d" "$state/deb"
  cat > "$state/etc/sources.list" <<SRC
deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian trixie main
SRC
  : > "$state/etc/status"
  local aptopts=(-o "Dir::State=$state" -o "Dir::State::Lists=$state/lists" -o "Dir::State::status=$state/etc/status"
                 -o "Dir::Cache=$state/cache" -o "Dir::Etc::SourceList=$state/etc/sources.list"
                 -o "Dir::Etc::SourceParts=/dev/null" -o "Dir::Etc::Preferences=$state/etc/preferences"
                 -o "Dir::Etc::PreferencesParts=$state/etc/preferences.d" -o "APT::Get::List-Cleanup=0"
                 -o APT::Sandbox::User=root)
  if apt-get "${aptopts[@]}" update -qq &&
     (cd "$state/deb" && apt-get "${aptopts[@]}" download "$@" >/dev/null); then
    mkdir -p "$prefix"
    local deb
    for deb in "$state/deb"/*.deb; do dpkg -x "$deb" "$prefix" || rc=1; done
  else
    rc=1
  fi
  rm -rf "$state"
  return $rc
}
