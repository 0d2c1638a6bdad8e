#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/xen/mkinitrd.sh — build the dom0 initramfs for the Xen tests.
#
#   tests/xen/mkinitrd.sh CACHE OUT.cpio.gz CASES.sh BIN_DIR GUEST_DIR
#
# Contents: static busybox, the real Xen tools from the unpacked packages
# (/usr/sbin/xl etc. in the .deb are wrappers), their shared libraries
# resolved against the unpacked tree (glibc and libgcc_s from the host,
# which must be Debian 12 like the packages), the Xen and 9p kernel
# modules, every file of BIN_DIR in /bin (our static binaries), every file
# of GUEST_DIR in /guest, tests/xen/dom0/init as /init and CASES.sh as
# /cases.sh.
set -euo pipefail
C=$1 OUT=$2 CASES=$3 BINS=$4 GUESTS=$5
HERE=$(cd "$(dirname "$0")" && pwd)
R=$C/root KVER=$(cat "$C/kver")
D=$(mktemp -d "${TMPDIR:-/tmp}/uf-dom0.XXXXXX")
trap 'rm -rf "$D"' EXIT
chmod 755 "$D"   # mktemp makes it 0700: / of dom0, which every user must traverse
mkdir -p "$D"/{bin,etc/xen,proc,sys,dev,run,tmp,lib/modules,lib/x86_64-linux-gnu,lib64,guest,var/lib/xen,var/log/xen,var/lib/xenstored}
ln -s bin "$D/sbin"; ln -s ../run "$D/var/run"
chmod 1777 "$D/tmp"
cp "$R/bin/busybox" "$D/bin/"
for a in $("$R/bin/busybox" --list); do [ -e "$D/bin/$a" ] || ln -s busybox "$D/bin/$a"; done
XB=$R/usr/lib/xen-4.17/bin
for b in xl xenstored xenconsoled xen-init-dom0 xenconsole; do cp "$XB/$b" "$D/bin/"; done
cp "$R/usr/bin/xenstore" "$D/bin/"
for b in read write ls list rm watch; do ln -sf xenstore "$D/bin/xenstore-$b"; done
mkdir -p "$D/usr/lib/xen-4.17/bin"; ln -s /bin/xenconsole "$D/usr/lib/xen-4.17/bin/xenconsole"
: > "$D/etc/xen/xl.conf"
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/:/bin/sh\n' > "$D/etc/passwd"   # su nobody: the not-root case
printf 'root:x:0:\nnogroup:x:65534:\n' > "$D/etc/group"   # xl insists on the file; the defaults are fine
export LD_LIBRARY_PATH=$R/usr/lib/x86_64-linux-gnu:$R/lib/x86_64-linux-gnu
for b in xl xenstored xenconsoled xen-init-dom0 xenstore xenconsole; do
  ldd "$D/bin/$b" | awk '/=>/ {print $3} /ld-linux/ {print $1}'
done | sort -u | while read -r lib; do
  [ -f "$lib" ] || continue
  case "$lib" in /lib64/*) cp -L "$lib" "$D/lib64/" ;; *) cp -L "$lib" "$D/lib/x86_64-linux-gnu/" ;; esac
done
# glibc dlopen()s libgcc_s for pthread_cancel (xl uses it); ldd does not list it
cp -L /lib/x86_64-linux-gnu/libgcc_s.so.1 "$D/lib/x86_64-linux-gnu/"
K=$R/lib/modules/$KVER/kernel
for m in drivers/xen/xen-evtchn drivers/xen/xen-gntdev drivers/xen/xen-gntalloc drivers/xen/xen-privcmd \
         drivers/xen/xenfs/xenfs drivers/virtio/virtio_ring drivers/virtio/virtio \
         drivers/virtio/virtio_pci_modern_dev drivers/virtio/virtio_pci_legacy_dev drivers/virtio/virtio_pci \
         fs/netfs/netfs fs/fscache/fscache net/9p/9pnet net/9p/9pnet_virtio fs/9p/9p; do
  cp "$K/$m.ko" "$D/lib/modules/"; basename "$m" >> "$D/lib/modules/order"
done
cp -a "$BINS"/. "$D/bin/"
cp -a "$GUESTS"/. "$D/guest/"
cp "$HERE/dom0/init" "$D/init"; cp "$CASES" "$D/cases.sh"; chmod +x "$D/init"
(cd "$D" && find . | cpio -H newc -o --quiet | gzip -1) > "$OUT"
