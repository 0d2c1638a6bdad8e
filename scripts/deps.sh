#!/usr/bin/env bash
# Make sure the Debian packages a make target needs are present.
#
#   scripts/deps.sh build|check|demo
#
# As root, missing packages are installed with apt-get; otherwise the exact
# apt-get line is printed and the script fails, so the user knows what to do.
set -u
want=(gcc make pkg-config libelf-dev libdw-dev libxml2-dev)
case "${1:-build}" in
  build) ;;
  check) want+=(libcmocka-dev libxml2-utils nodejs npm chromium libxen-dev qemu-system-x86 cpio busybox-static binutils clang libclang-rt-14-dev python3) ;;
  demo)  want+=(qemu-system-x86) ;;
  *) echo "deps.sh: unknown set '$1'" >&2; exit 1 ;;
esac
missing=()
for p in "${want[@]}"; do
  # node may come from another source than Debian's nodejs package: a
  # working node and npm on PATH are as good.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
line="apt-get install -y ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "uniprof-flame: missing Debian packages; run as root:" >&2
  echo "  $line" >&2
  exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q "${missing[@]}" >/dev/null 2>&1; then
  apt-get update -q >/dev/null 2>&1 || true
  apt-get install -y -q "${missing[@]}" >&2 || { echo "deps: failed: $line" >&2; exit 1; }
fi
