#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/xen.sh — sampling a Xen domain: our xen-if backend (and uniprof-flame
# when it has the record command) against uniprof, side by side in one
# emulated boot (Xen 4.17 under QEMU/TCG, tests/xen harness).  Prints
# figures; never fails the build.
#
#   UNIPROF=/path/to/static/uniprof bench/xen.sh
#
# uniprof (github sysml/uniprof) is not part of this project and is never
# built by it: build it by hand, statically, against the same libxen 4.17
# (configure --with-libxencall; make uniprof LDFLAGS=-static) and point
# UNIPROF at the binary.  Without it only our figures are printed.
# Reported per tool: time per sample when saturated, hypercalls and foreign
# maps per sample in steady state (ours: counted by the backend), achieved
# rate at -F 100 and -F 1000.  TCG timing varies about 3x from boot to
# boot: compare tools within one run, not across runs.
set -u
TOP=$(cd "$(dirname "$0")/.." && pwd)
X=$TOP/tests/xen
C=${UF_XEN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/uniprof-flame/xen-4.17}
W=$TOP/build/xen-bench
command -v qemu-system-x86_64 >/dev/null || { echo "bench/xen: qemu-system-x86_64 missing; skipped"; exit 0; }
"$X/prepare.sh" "$C" || { echo "bench/xen: cannot prepare the Xen packages; skipped"; exit 0; }
rm -rf "$W"; mkdir -p "$W/bin" "$W/guest" "$W/out"
"$X/build.sh" "$W" || { echo "bench/xen: build failed; skipped"; exit 0; }
[ -n "${UNIPROF:-}" ] && cp "$UNIPROF" "$W/bin/uniprof"
"$X/mkinitrd.sh" "$C" "$W/dom0.cpio.gz" "$TOP/bench/xen-dom0.sh" "$W/bin" "$W/guest" || exit 0
"$X/boot.sh" "$C" "$W/dom0.cpio.gz" "$W/out" "$W/boot.log" 280
echo "bench/xen: $(grep -c '@@BENCH' "$W/out/cases.log" 2>/dev/null || echo 0) figures (log: $W/out/cases.log)"
grep -E '^@@(BENCH|UF|FAIL)' "$W/out/cases.log" 2>/dev/null | sed 's/^@@//'
exit 0
