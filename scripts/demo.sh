#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scripts/demo.sh — `make demo`: profile the bundled example guest kernel
# under QEMU through its gdbstub and write demo.svg.
#
# The Makefile's demo target builds the profiler and the examples first;
# this script also builds what is missing, so it runs on its own too.
# Steps: QEMU present (installed from Debian when run as root) -> boot
# examples/qemu-guest (software emulation; DEMO_ACCEL=kvm asks for KVM)
# with its gdbstub on a Unix socket -> `uniprof-flame --gdb`
# for DEMO_SECONDS (5) -> stop QEMU -> print the SVG's path and the top
# functions.  QEMU runs under `timeout` and holds /tmp/uf-qemu.lock, so
# it never overlaps another QEMU boot of our tests.
#
# Environment: DEMO_OUT (demo.svg), DEMO_SECONDS (5), DEMO_APP (app-test-1
# or app-test-2), QEMU (qemu-system-x86_64).
set -u
cd "$(dirname "$0")/.."
OUT=${DEMO_OUT:-demo.svg}
SECS=${DEMO_SECONDS:-5}
APP=${DEMO_APP:-app-test-1}
QEMU=${QEMU:-qemu-system-x86_64}
UF=build/uniprof-flame
GUEST=build/examples/qemu-guest
die() { echo "demo: $*" >&2; exit 1; }

if ! command -v "$QEMU" >/dev/null 2>&1; then
	scripts/deps.sh demo || die "QEMU is needed: apt-get install -y qemu-system-x86 (as root)"
fi
[ -x "$UF" ] || make --no-print-directory all >&2 || die "building uniprof-flame failed"
[ -f "$GUEST/qemu-guest.elf" ] || make --no-print-directory -C examples/qemu-guest >&2 ||
	die "building the example guest failed"
"$UF" record --help 2>&1 | grep -q -- '--gdb ADDR' || die "this build of uniprof-flame has no --gdb option"

# Software emulation by default: it runs the same everywhere.  A /dev/kvm
# that opens is no proof that KVM runs guests well (on nested or restricted
# hosts the guest crawls and most samples land outside the kernel), so KVM
# only on request: DEMO_ACCEL=kvm (QEMU falls back to tcg when it cannot).
accel=(-accel tcg) label=tcg
if [ "${DEMO_ACCEL:-}" = kvm ]; then
	accel=(-accel kvm -accel tcg) label="kvm, else tcg"
fi

dir=$(mktemp -d "${TMPDIR:-/tmp}/uf-demo.XXXXXX")
qpid=
cleanup() {
	[ -n "$qpid" ] && kill "$qpid" 2>/dev/null && wait "$qpid" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

exec 9>/tmp/uf-qemu.lock
flock 9
sock=$dir/gdb.sock
timeout $((SECS + 60)) "$QEMU" "${accel[@]}" -m 64 -nodefaults -display none \
	-serial "file:$dir/serial.log" -kernel "$GUEST/qemu-guest.elf" -append "$APP" \
	-gdb "unix:$sock,server=on,wait=off" 2>>"$dir/qemu.log" &
qpid=$!
for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
[ -S "$sock" ] || die "QEMU did not open its gdbstub socket"
# Profile the kernel, not the firmware: wait for its banner on the serial port.
for _ in $(seq 200); do grep -q 'uniprof-flame guest' "$dir/serial.log" 2>/dev/null && break; sleep 0.05; done

echo "demo: profiling the example guest ($APP, accel: $label) for $SECS s ..." >&2
"$UF" --gdb "unix:$sock" -x "$GUEST/qemu-guest.dbg" -T "$SECS" -o "$OUT" \
	--folded "$dir/demo.folded" --title "uniprof-flame demo: QEMU guest ($APP)" -q
rc=$?
kill "$qpid" 2>/dev/null; wait "$qpid" 2>/dev/null; qpid=
flock -u 9
[ $rc -eq 0 ] || die "uniprof-flame failed (exit $rc)"

echo "demo: wrote $(cd "$(dirname "$OUT")" && pwd)/$(basename "$OUT") — open it in a browser"
echo "demo: top functions (self time):"
awk '{ n = $NF; $NF = ""; sub(/ $/, ""); k = split($0, f, ";"); self[f[k]] += n; tot += n }
     END { for (s in self) printf "%6.1f%%  %s\n", 100 * self[s] / tot, s }' \
	"$dir/demo.folded" | sort -rn | head -5
