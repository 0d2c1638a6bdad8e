#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Make sure the Debian packages a make target needs are present.
#
#   scripts/deps.sh build|check|demo
#
# As root, missing packages are installed with apt-get; otherwise the exact
# apt-get line is printed and the script fails, so the user knows what to do.
# Xen support (libxen-dev) is part of every set on amd64, where xen-if can
# be built (it reads x86-64 vCPU state and does not compile for arm64, so
# there the build goes without Xen): installed as root like the rest; when
# not root and it is the only thing missing, the apt line is printed and
# the build goes on without Xen (the Makefile says so in one line,
# `uniprof-flame --version` too).
set -u
want=(gcc make pkg-config libelf-dev libdw-dev libxml2-dev libprotobuf-c-dev protobuf-c-compiler zlib1g-dev liblzma-dev libbz2-dev libdeflate-dev)
optional=()
arch=$(dpkg --print-architecture 2>/dev/null || echo unknown)
case "$arch" in
  amd64) optional+=(libxen-dev) ;;
esac
# The AArch64 example guest: a cross compiler, except on arm64 itself
# (where the native gcc is aarch64-linux-gnu-gcc).
cross=(gcc-aarch64-linux-gnu)
[ "$arch" = arm64 ] && cross=()
case "${1:-build}" in
  build) ;;
  check) want+=(libcmocka-dev libxml2-utils nodejs npm chromium firefox-esr qemu-system-x86 qemu-system-arm
                "${cross[@]}" cpio busybox-static binutils strace clang llvm libclang-rt-14-dev python3 golang-go python3-jsonschema) ;;
  demo)  want+=(qemu-system-x86) ;;
  *) echo "deps.sh: unknown set '$1'" >&2; exit 1 ;;
esac
installed() {
  # node may come from another source than Debian's nodejs package: a
  # working node and npm on PATH are as good.
  case "$1" in
    nodejs) command -v node >/dev/null 2>&1 && return 0 ;;
    npm) command -v npm >/dev/null 2>&1 && return 0 ;;
  esac
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'
}
missing=() missing_opt=()
for p in "${want[@]}"; do installed "$p" || missing+=("$p"); done
for p in "${optional[@]}"; do installed "$p" || missing_opt+=("$p"); done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_opt[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
  if [ ${#missing[@]} -eq 0 ]; then
    echo "uniprof-flame: for Xen support, run as root: apt-get install -y ${missing_opt[*]}" >&2
    exit 0
  fi
  echo "uniprof-flame: missing Debian packages; run as root:" >&2
  echo "  apt-get install -y ${missing[*]} ${missing_opt[*]}" >&2
  exit 1
fi
all=("${missing[@]}" "${missing_opt[@]}")
line="apt-get install -y ${all[*]}"
echo "deps: installing ${all[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q "${all[@]}" >/dev/null 2>&1; then
  apt-get update -q >/dev/null 2>&1 || true
  apt-get install -y -q "${all[@]}" >&2 || { echo "deps: failed: $line" >&2; exit 1; }
fi
