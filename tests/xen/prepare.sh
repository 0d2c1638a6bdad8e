#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/xen/prepare.sh — fetch Xen 4.17, its tools and a Debian kernel as
# .debs and unpack them (dpkg -x) into a cache; nothing is installed.
#
#   tests/xen/prepare.sh CACHE_DIR
#
# Result: CACHE/root (the unpacked tree), CACHE/img/xen (raw multiboot
# ELF for QEMU), CACHE/img/vmlinuz; CACHE/ready marks a complete cache.
# Exit 0 when ready, 2 when the packages cannot be fetched (no network or
# no apt sources: the caller skips), 1 on other errors.
set -euo pipefail
C=${1:?usage: prepare.sh CACHE_DIR}
[ -f "$C/ready" ] && exit 0
mkdir -p "$C/debs" "$C/img"
rm -rf "$C/root"; mkdir -p "$C/root"
cd "$C/debs"
kpkg() { apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ {print $2; exit}'; }
KPKG=$(kpkg)
if [ -z "$KPKG" ] && [ "$(id -u)" = 0 ]; then apt-get update -qq >/dev/null 2>&1 || true; KPKG=$(kpkg); fi
[ -n "$KPKG" ] || { echo "prepare: cannot resolve the Debian kernel package (apt lists missing?)" >&2; exit 2; }
PKGS="xen-hypervisor-4.17-amd64 xen-utils-4.17 xenstore-utils libxenmisc4.17 libxencall1
  libxendevicemodel1 libxenevtchn1 libxenforeignmemory1 libxengnttab1 libxenhypfs1 libxenstore4
  libxentoolcore1 libxentoollog1 libyajl2 busybox-static $KPKG"
fetch() { apt-get download $PKGS >/dev/null 2>"$C/apt.err"; }
if ! fetch; then
  [ "$(id -u)" = 0 ] && apt-get update -qq >/dev/null 2>&1 || true
  fetch || { echo "prepare: apt-get download failed: $(tail -1 "$C/apt.err")" >&2; exit 2; }
fi
for d in "$C"/debs/*.deb; do dpkg -x "$d" "$C/root"; done
gunzip -c "$C"/root/boot/xen-4.17-amd64.gz > "$C/img/xen"   # QEMU's multiboot loader needs the raw ELF
cp "$C"/root/boot/vmlinuz-* "$C/img/vmlinuz"
ls "$C"/root/lib/modules > "$C/kver"
touch "$C/ready"
