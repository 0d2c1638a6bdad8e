#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/gdb/t-qemu-states.sh — run state per vCPU through QEMU's gdbstub
# (issue 30): the example guest kernel in its app-phases mode (PIT at
# 1 kHz; phase_a computes, phase_wait halts with `hlt`, phase_b computes,
# 500 ticks each) is recorded from its first instruction (--qemu) for 4
# cycles; at the end the guest prints how long each phase took, counted
# by its own time-stamp counter (QEMU derives it from the host clock):
# that is the truth.  Checks: the blocked share within 5 pp of
# phase_wait's share, >= 95 % of phase_wait's samples blocked and
# >= 95 % of the compute phases' samples running, and `--on-cpu` shares
# of phase_a / phase_b (from the raw trace) within 3 pp of their split.
# Holds /tmp/uf-qemu.lock like tests/gdb/t-qemu.sh (one QEMU at a time).
if [ -z "${UF_QEMU_LOCKED:-}" ]; then
	UF_QEMU_LOCKED=1 exec flock /tmp/uf-qemu.lock bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
. "$UF_TOP/tests/record/lib-record.sh"
GUEST="$UF_TOP/build/examples/qemu-guest"
ST="python3 $UF_TOP/tests/record/states.py"
command -v qemu-system-x86_64 >/dev/null || { skip gdb-states "qemu-system-x86_64 not installed"; exit 0; }
make --no-print-directory -s -C "$UF_TOP/examples/qemu-guest" >/dev/null ||
	{ fail gdb-states "examples/qemu-guest does not build"; exit 0; }

# tsc_of PHASE: the guest's "truth PHASE ticks T tsc C"
tsc_of() { awk -v p="$1" '$1 == "truth" && $2 == p { print $6 }' "$TMP/serial.log"; }

run() {
	rm -f "$TMP/serial.log"
	timeout 120 "$UF" -x "$GUEST/qemu-guest.dbg" -F 299 --raw "$TMP/raw" --folded "$TMP/all.folded" \
		-o "$TMP/out.svg" --qemu -- qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none \
		-serial "file:$TMP/serial.log" -kernel "$GUEST/qemu-guest.elf" -append "app-phases rounds=4" \
		-device isa-debug-exit,iobase=0xf4,iosize=4 2>"$TMP/err"
	grep -q '^truth phase_b' "$TMP/serial.log" || { echo "no truth from the guest: $(tail -1 "$TMP/err")" >"$TMP/why"; return 1; }
	"$UF" fold --on-cpu --symbols "$GUEST/qemu-guest.dbg" "$TMP/raw" >"$TMP/on.folded" 2>>"$TMP/err"
	local a w b
	a=$(tsc_of phase_a); w=$(tsc_of phase_wait); b=$(tsc_of phase_b)
	local want_blk want_a
	want_blk=$(awk -v a="$a" -v w="$w" -v b="$b" 'BEGIN { printf "%.1f", 100 * w / (a + w + b) }')
	want_a=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", 100 * a / (a + b) }')
	set -- $($ST state "$TMP/all.folded")
	local blk=$6 n=${10}
	local wblk arun brun ona onb
	wblk=$($ST under "$TMP/all.folded" phase_wait blocked)
	arun=$($ST under "$TMP/all.folded" phase_a running)
	brun=$($ST under "$TMP/all.folded" phase_b running)
	set -- $($ST share "$TMP/on.folded" phase_a phase_b)
	ona=$1 onb=$2
	{
		echo "$n samples"
		echo "blocked $blk% (truth $want_blk%)"
		echo "phase_wait blocked $wblk%, phase_a running $arun%, phase_b running $brun%"
		echo "on-cpu phase_a $ona% phase_b $onb% (truth phase_a $want_a%)"
	} >"$TMP/why"
	[ "$n" -ge 500 ] && within "$blk" "$want_blk" 5 && [ "${wblk%.*}" -ge 95 ] &&
		[ "${arun%.*}" -ge 95 ] && [ "${brun%.*}" -ge 95 ] &&
		within "$ona" "$want_a" 3 && within "$onb" "$(awk -v a="$want_a" 'BEGIN { print 100 - a }')" 3
}
if run || run; then
	while read -r line; do pass "gdb states: app-phases: $line"; done <"$TMP/why"
else
	fail "gdb states: app-phases" "$(tr '\n' ';' <"$TMP/why")"
fi
