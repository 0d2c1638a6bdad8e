#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/xen/boot.sh — boot Xen + the test dom0 under QEMU (TCG) once.
#
#   tests/xen/boot.sh CACHE INITRD OUT_DIR LOG [TIMEOUT_S]
#
# OUT_DIR is shared into dom0 over 9p (mounted at /out); the serial line
# (Xen's console and dom0's hvc0) goes to LOG.  Holds /tmp/uf-qemu.lock
# for the whole run so that no two QEMU boots share this machine's cores,
# and bounds it with `timeout`.  Why these flags:
#   -cpu max,-smap   TCG's SMAP emulation crashes Xen's PV dom0 on its
#                    first iret (#PF in create_bounce_frame)
#   -smp 2           the guest runs on its own pCPU beside dom0
#   -kernel xen      the gunzipped 32-bit ELF: QEMU's multiboot loader
#                    does not read xen.gz; modules go in -initrd, comma-separated
#   -no-reboot       a dom0 crash (Xen reboots) ends QEMU instead of looping
set -uo pipefail
C=$1 INITRD=$2 OUT=$3 LOG=$4 TMO=${5:-240}
XEN_ARGS="console=com1 com1=115200,8n1 loglvl=all guest_loglvl=all dom0_mem=768M,max:768M dom0_max_vcpus=1 noreboot=false"
DOM0_ARGS="console=hvc0 earlyprintk=xen rdinit=/init loglevel=4 tsc=reliable"
flock /tmp/uf-qemu.lock timeout "$TMO" qemu-system-x86_64 -accel tcg,thread=multi -cpu max,-smap \
  -smp 2 -m 2048 -nographic -no-reboot -monitor none -serial stdio \
  -virtfs "local,path=$OUT,mount_tag=out,security_model=none,id=out" \
  -kernel "$C/img/xen" -append "$XEN_ARGS" \
  -initrd "$C/img/vmlinuz $DOM0_ARGS,$INITRD" </dev/null 2>&1 | tr -d '\r' > "$LOG"
exit "${PIPESTATUS[0]}"
