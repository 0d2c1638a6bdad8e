#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/gdb/t-hostile.sh — profile a hostile guest under QEMU through the
# real gdbstub (examples/hostile-guest: while sampled it points rbp at
# self-referencing and looping frame records, unmapped and MMIO pages, a
# page-table loop, a page it maps and unmaps, the last bytes below 2^64,
# and rsp with it where the walk should read there), once with
# --unwind=fp and once with the default (CFI where the guest has it):
#   - the profiler finishes in time with exit 0 and an SVG, no sanitizer
#     report (ASan build);
#   - every phase is sampled (its pc resolves) and the one real chain is
#     whole;
#   - no stack is deeper than the guest's real one (no loop is followed)
#     and no walk stops at the depth cap;
#   - the summary counts the walks that ended early (with frame pointers
#     most of them, with CFI at least the phases with a hostile rsp);
#   - the guest keeps running after the profiler detached.
# Holds /tmp/uf-qemu.lock (never two QEMU boots at once); every QEMU runs
# under `timeout`.
if [ -z "${UF_QEMU_LOCKED:-}" ]; then
	UF_QEMU_LOCKED=1 exec flock /tmp/uf-qemu.lock bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
GUEST="$UF_TOP/build/examples/hostile-guest"
command -v qemu-system-x86_64 >/dev/null || { skip gdb-hostile "qemu-system-x86_64 not installed"; exit 0; }
make --no-print-directory -s -C "$UF_TOP/examples/hostile-guest" OUT="$GUEST" >/dev/null ||
	{ fail gdb-hostile-build "examples/hostile-guest does not build"; exit 0; }
DBG="$GUEST/hostile-guest.dbg"
SOCK=$TMP/gdb.sock
(timeout 120 qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none \
	-serial "file:$TMP/serial.log" -kernel "$GUEST/hostile-guest.elf" \
	-pidfile "$TMP/qemu.pid" -gdb "unix:$SOCK,server=on,wait=off" 2>"$TMP/qemu.err"; exit $?) &
for _ in $(seq 200); do [ -S "$SOCK" ] && [ -s "$TMP/qemu.pid" ] && break; sleep 0.05; done
QPID=$(cat "$TMP/qemu.pid" 2>/dev/null)
trap '[ -n "$QPID" ] && kill "$QPID" 2>/dev/null; wait 2>/dev/null; rm -rf "$TMP"' EXIT
for _ in $(seq 200); do grep -q 'uniprof-flame guest: hostile' "$TMP/serial.log" 2>/dev/null && break; sleep 0.05; done
grep -q 'uniprof-flame guest: hostile' "$TMP/serial.log" 2>/dev/null ||
	{ fail gdb-hostile-boot "the guest did not boot: $(head -c 200 "$TMP/qemu.err")"; exit 0; }

# Twice: frame pointers (every hostile rbp is followed as far as it goes)
# and the default, CFI where the guest has it (then the hostile rsp of the
# later phases is what the walk reads).  With frame pointers nearly every
# walk meets a hostile frame; with CFI at least the phases whose rsp
# points at unmapped memory or the top of the address space do.
for mode in fp auto; do
	OUT=$TMP/out-$mode
	start=$(date +%s)
	timeout 60 "$UF" --gdb "unix:$SOCK" -x "$DBG" --unwind=$mode -F 199 -T 6 -o "$OUT.svg" \
		--folded "$OUT.folded" 2>"$OUT.err"; rc=$?
	took=$(( $(date +%s) - start ))
	if [ $rc -eq 0 ] && [ $took -le 20 ] && grep -q '<svg' "$OUT.svg"; then
		pass "gdb hostile $mode: finished (exit 0 in ${took}s, SVG written)"
	else
		fail "gdb hostile $mode: finished" "rc=$rc in ${took}s: $(tail -2 "$OUT.err" | tr '\n' ' ')"
	fi
	if grep -qE 'Sanitizer|runtime error' "$OUT.err"; then
		fail "gdb hostile $mode: sanitizers" "$(grep -m1 -E 'ERROR|runtime error' "$OUT.err")"
	else
		pass "gdb hostile $mode: no sanitizer report"
	fi
	n=$(awk '{ s += $NF } END { print s + 0 }' "$OUT.folded" 2>/dev/null)
	missing=
	for p in phase_self_loop phase_frame_loop phase_unmapped phase_mmio phase_pt_loop phase_pt_flip phase_top; do
		grep -qE "(^|;)$p [0-9]" "$OUT.folded" || missing="$missing $p"
	done
	[ "${n:-0}" -ge 300 ] && [ -z "$missing" ] && pass "gdb hostile $mode: every phase sampled ($n samples)" ||
		fail "gdb hostile $mode: phases" "$n samples; never as a leaf:${missing:- none}"
	grep -q '^long_entry;kmain;phase_normal;normal_leaf ' "$OUT.folded" &&
		pass "gdb hostile $mode: the real chain is whole" ||
		fail "gdb hostile $mode: real chain" "no stack long_entry;kmain;phase_normal;normal_leaf"
	deep=$(awk '{ k = split($1, f, ";"); if (k > m) m = k } END { print m + 0 }' "$OUT.folded")
	[ "$deep" -le 6 ] && pass "gdb hostile $mode: no loop followed (deepest stack $deep frames)" ||
		fail "gdb hostile $mode: loop followed" "a stack of $deep frames: $(awk -F';' 'NF > 6 { print substr($0, 1, 120); exit }' "$OUT.folded")"
	walks=$(grep -m1 'walks' "$OUT.err")
	depth=$(sed -nE 's/.* ([0-9]+) at max depth.*/\1/p' <<<"$walks")
	early=$(sed -nE 's/.* ([0-9]+) ended early.*/\1/p' <<<"$walks")
	div=8
	[ $mode = fp ] && div=2
	want=$(( ${n:-0} / div ))
	if [ "${depth:-x}" = 0 ] && [ "${early:-0}" -ge "$want" ] && [ "$want" -gt 0 ]; then
		pass "gdb hostile $mode: summary counts the bad walks ($early of $n ended early)"
	else
		fail "gdb hostile $mode: summary" "want 0 at max depth and >= $want ended early: $walks"
	fi
done

# The guest still runs after the profiler left: its round counter advances.
cc -std=gnu11 -O2 -I"$UF_TOP" -D_GNU_SOURCE -o "$TMP/gdb-sample" "$UF_TOP/tests/gdb/gdb-sample.c" \
	"$UF_TOP"/gdb-if/*.c "$UF_TOP/util/err.c"
ctr=$(nm "$DBG" | awk '$3 == "uf_rounds" { print $1 }')
rps=$(timeout 30 "$TMP/gdb-sample" "unix:$SOCK" -b -T 2 -c "$ctr" 2>&1 | awk '$1 == "counter_per_s" { print $2 }')
awk -v r="${rps:-0}" 'BEGIN { exit !(r > 0) }' && pass "gdb hostile: guest still running ($rps rounds/s)" ||
	fail "gdb hostile: guest resumed" "round counter does not advance (${rps:-no reading})"
exit 0
