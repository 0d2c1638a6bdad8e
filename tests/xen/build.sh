#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/xen/build.sh — build what the test dom0 runs, into WORK/{bin,guest}:
# the PV test guest (examples/xen-guest), the xen-if driver (static, with
# the crash reporter tests/xen/segv-trace.c), and
# uniprof-flame itself (static: `make build/xen-test/uniprof-flame-static`,
# the release objects plus tests/xen/segv-trace.c, which reports a crash
# with its backtrace) when the tree has the record command.  Static binaries need no library copying
# into dom0 and cannot pick up a mismatched libxenctrl there.
#
#   tests/xen/build.sh WORK
set -euo pipefail
W=$1
TOP=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$W/bin" "$W/guest" "$W/obj"
make -s -C "$TOP/examples/xen-guest" O="$W/obj/guest"
cp "$W"/obj/guest/xen-guest{,-pvh}.{elf,map} "$W/guest/"
# the truths dom0 judges its share profiles by (a second recording when off)
cp "$TOP"/examples/workloads/{app-test-1,app-test-2,uklibs-xen}.truth "$W/guest/"
# the same guest with frame pointers, for the frame-pointer-vs-CFI figures
make -s -C "$TOP/examples/xen-guest" O="$W/obj/guest-fp" FPFLAGS=1 "$W/obj/guest-fp/xen-guest.elf"
cp "$W/obj/guest-fp/xen-guest.elf" "$W/guest/xen-guest-fp.elf"
XLIBS=$(pkg-config --static --libs xencontrol xencall xenforeignmemory xenstore xentoollog)
cc -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wno-unused-parameter -D_GNU_SOURCE -I"$TOP" -static \
  -o "$W/bin/xen-drive" "$TOP/tests/xen/xen-drive.c" "$TOP"/xen-if/{xen,mem,domain}.c "$TOP/util/err.c" \
  "$TOP/tests/xen/segv-trace.c" \
  $XLIBS -lpthread
if [ -f "$TOP/record/backends.c" ] && grep -q xen_target_open "$TOP/record/backends.c"; then
  # the release objects plus a test-only crash reporter (tests/xen/segv-trace.c)
  make -s -C "$TOP" build/xen-test/uniprof-flame-static
  cp "$TOP/build/xen-test/uniprof-flame-static" "$W/bin/uniprof-flame"
fi
# an older build for before/after figures (tests/xen/dom0/cases.sh, upcall)
if [ -n "${UF_XEN_BASE:-}" ] && [ -x "$UF_XEN_BASE" ]; then
  cp "$UF_XEN_BASE" "$W/bin/uniprof-flame-base"
fi
