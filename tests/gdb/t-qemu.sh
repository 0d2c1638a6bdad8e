#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/gdb/t-qemu.sh — profile the example guest kernel under QEMU
# (software emulation) through the real gdbstub with `uniprof-flame --gdb`:
#   - app-test-1 and app-test-2: >= 1000 samples, every function's share
#     within +-3 percentage points of its .truth file, and the full call
#     chain (long_entry;kmain;app_test_N_round;...) in the stacks;
#   - source lines: function_3's tooltip names its line in workloads.c and
#     app_test_1_round's its call site (the UF_BURN / call lines, read from
#     the source), as for a Linux process;
#   - app-uklibs (examples/uklibs' libraries linked into the guest, their
#     DWARF paths laid out as a Unikraft tree): `fold --by=lib` of the
#     recorded SVG within +-3 points of the true per-library shares, and
#     record's live per-library table equal to that view of the SVG;
#   - the guest is built like Unikraft (-O2, no frame pointers,
#     -fno-asynchronous-unwind-tables): its rules exist only in the .dbg's
#     .debug_frame; >= 95 % of the walks are complete and rooted at
#     long_entry;kmain, callers found through CFI;
#   - examples/ukguest, built like a Unikraft application without frame
#     pointers (assembly memcpy/memset without CFI, a recursive library
#     whose stack depth changes by up to ~10 KiB between samples, libraries
#     under workdir/build/libNAME/origin/ and workdir/libs/musl/): <= 1 % of
#     the walks end early; >= 99 % of the samples in memcpy/memset are
#     rooted at long_entry;kmain with their caller (me_factor,
#     app_write_expr) above them (the leaf rule); `fold --by=lib` of the
#     SVG gives each library the self share its functions have in the
#     folded stacks (+-1 point: libmusl = memcpy, memset, strlen,
#     uk_musl_checksum; libminexpr = me_*; the rest ukguest), and the
#     live table equals it;
#   - QEMU killed mid-run: the output is still written, exit 0, and the
#     message says the stub closed the connection;
#   - Ctrl-C mid-run: output written, and the guest keeps running after we
#     detach (its round counter still advances, read through the stub);
#   - no stub at the address: exit 3 and the address in the message.
# The whole script holds /tmp/uf-qemu.lock (never two QEMU boots at once)
# and every QEMU runs under `timeout`.
if [ -z "${UF_QEMU_LOCKED:-}" ]; then
	UF_QEMU_LOCKED=1 exec flock /tmp/uf-qemu.lock bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
GUEST="$UF_TOP/build/examples/qemu-guest"
command -v qemu-system-x86_64 >/dev/null || { skip gdb-qemu "qemu-system-x86_64 not installed"; exit 0; }
"$UF" record --help 2>&1 | grep -q -- '--gdb ADDR' || { skip gdb-qemu "uniprof-flame has no --gdb option (record not merged)"; exit 0; }
[ -f "$UF_TOP/tests/record/lib-record.sh" ] || { skip gdb-qemu "tests/record/lib-record.sh missing"; exit 0; }
. "$UF_TOP/tests/record/lib-record.sh"
make --no-print-directory -s -C "$UF_TOP/examples/qemu-guest" >/dev/null ||
	{ fail gdb-qemu-build "examples/qemu-guest does not build"; exit 0; }
DBG="$GUEST/qemu-guest.dbg"
QPID=
if readelf -S "$DBG" | grep -q '\.debug_frame' && ! readelf -S "$DBG" | grep -q '\.eh_frame'; then
	pass "gdb guest: unwind rules only in .debug_frame (like Unikraft)"
else
	fail "gdb guest: .debug_frame" "$(readelf -S "$DBG" | grep -E 'frame' | tr '\n' ' ')"
fi

# boot APP [KERNEL]: QEMU (TCG) with the gdbstub on $SOCK; $QPID is QEMU's own pid.
boot() {
	local kernel=${2:-$GUEST/qemu-guest.elf}
	SOCK=$TMP/gdb-$1.sock
	rm -f "$SOCK" "$TMP/qemu.pid"
	# (in a subshell: the shell would report the job "Killed" otherwise)
	(timeout 120 qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none \
		-serial "file:$TMP/serial-$1.log" -kernel "$kernel" -append "$1" \
		-pidfile "$TMP/qemu.pid" -gdb "unix:$SOCK,server=on,wait=off" 2>>"$TMP/qemu.err"; exit $?) &
	for _ in $(seq 200); do [ -S "$SOCK" ] && [ -s "$TMP/qemu.pid" ] && break; sleep 0.05; done
	QPID=$(cat "$TMP/qemu.pid" 2>/dev/null)
	# past the firmware: the kernel prints its banner before its loop
	for _ in $(seq 200); do grep -q 'uniprof-flame guest' "$TMP/serial-$1.log" 2>/dev/null && break; sleep 0.05; done
}
halt() { [ -n "$QPID" ] && kill "$QPID" 2>/dev/null; wait 2>/dev/null; QPID=; }
trap 'halt; rm -rf "$TMP"' EXIT

# Accuracy.  299 Hz x 8 s: ~1800-2400 samples (stops of ~0.3 ms on a loaded
# machine miss some deadlines).
for app in app-test-1 app-test-2; do
	boot "$app"
	OUT="$TMP/$app"
	record_truth "gdb $app" "$TRUTH/$app.truth" \
		timeout 60 "$UF" --gdb "unix:$SOCK" -x "$DBG" -F 299 -T 8 -o "$OUT.svg" \
		--folded "$OUT.folded" 2>"$OUT.err"
	check_samples "gdb $app" "$OUT.folded" "$OUT.err" 299
	top=$([ "$app" = app-test-1 ] && echo "long_entry;kmain;app_test_1_round;function_3" ||
		echo "long_entry;kmain;app_test_2_round;t2_function_2;t2_function_5")
	has_chain "$OUT.folded" "$top" && pass "gdb $app: whole chain from the entry point" ||
		fail "gdb $app: whole chain" "no stack $top"
	pct=$(complete_pct "$OUT.err"); root=$(rooted_at "$OUT.folded" "long_entry;kmain")
	# the last summary: $OUT.err holds one per recording record_truth made
	cfi=$(sed -n 's/.*callers \([0-9.]*\)% by CFI.*/\1/p' "$OUT.err" | tail -n 1)
	if [ "${pct:-0}" -ge 95 ] && awk -v r="$root" -v c="${cfi:-0}" 'BEGIN { exit !(r >= 95 && c >= 50) }'; then
		pass "gdb $app: $pct% of walks complete, $root% rooted at long_entry;kmain, $cfi% of callers by CFI"
	else
		fail "gdb $app: CFI walks" "$pct% complete, $root% rooted, ${cfi:-?}% by CFI: $(grep walks "$OUT.err" | tail -n 1)"
	fi
	grep -q '<svg' "$OUT.svg" && grep -q 'function_' "$OUT.svg" && pass "gdb $app: svg" ||
		fail "gdb $app: svg" "no flame graph with the function names"
	if [ "$app" = app-test-1 ]; then
		WL="$UF_TOP/examples/workloads/workloads.c"
		l3=$(grep -n 'void function_3(void) { UF_BURN' "$WL" | cut -d: -f1)
		lc=$(grep -n '^	function_3();' "$WL" | cut -d: -f1)
		t3=$(grep -A2 '^<title>function_3 (' "$OUT.svg" | grep -m1 '^source: ')
		tr=$(grep -A2 '^<title>app_test_1_round (' "$OUT.svg" | grep -m1 '^source: ')
		[[ "$t3" == "source: workloads.c:$l3 (100%)"* ]] && [[ "$tr" == *"workloads.c:$lc ("* ]] &&
			pass "gdb $app: tooltips name the lines (function_3 at workloads.c:$l3, its call site :$lc)" ||
			fail "gdb $app: source lines" "want workloads.c:$l3 and call site :$lc: '$t3' '$tr'"
	fi
	halt
done

# Per-library shares: the guest linked with examples/uklibs' libraries.
boot app-uklibs
OUT="$TMP/uklibs"
rec_uk() {
	timeout 60 "$UF" --gdb "unix:$SOCK" -x "$DBG" -F 299 -T 8 -o "$OUT.svg" 2>"$OUT.err" &&
		"$UF" fold --by=lib "$OUT.svg" >"$OUT.folded"
}
record_truth "gdb app-uklibs: fold --by=lib of the recorded SVG" "$TRUTH/uklibs-guest.truth" rec_uk
check_lib_table "gdb app-uklibs" "$OUT.err" "$OUT.folded"
halt

# The Unikraft-like guest without frame pointers.
UK="$UF_TOP/build/examples/ukguest"
if make --no-print-directory -s -C "$UF_TOP/examples/ukguest" >/dev/null; then
	boot ukguest "$UK/ukguest.elf"
	OUT="$TMP/ukguest"
	timeout 60 "$UF" --gdb "unix:$SOCK" -x "$UK/ukguest.dbg" -F 299 -T 8 -o "$OUT.svg" \
		--folded "$OUT.folded" 2>"$OUT.err"
	halt
	check_samples "gdb ukguest" "$OUT.folded" "$OUT.err" 299
	read -r ok early < <(sed -n 's/.*walks (--unwind=auto): \([0-9]*\) complete, \([0-9]*\) at max depth, \([0-9]*\) ended early.*/\1 \3/p' "$OUT.err" | tail -n 1)
	if [ -n "$early" ] && [ $((ok + early)) -gt 0 ] && [ $((100 * early)) -le $((ok + early)) ]; then
		pass "gdb ukguest: $early of $((ok + early)) walks ended early (<= 1 %)"
	else
		fail "gdb ukguest: early ends" "$(grep walks "$OUT.err" | tail -n 1)"
	fi
	# samples in the assembly leaves: rooted, with the caller above them
	leaf=$(awk '/^#/ { next } { n = $NF; s = substr($0, 1, length($0) - length(n) - 1)
		k = split(s, f, ";"); if (f[k] != "memcpy" && f[k] != "memset") next; t += n
		if (f[1] == "long_entry" && f[2] == "kmain" && (f[k-1] == "me_factor" || f[k-1] == "app_write_expr")) ok += n }
		END { printf "%d %d\n", t, ok }' "$OUT.folded")
	read -r lt lok <<<"$leaf"
	if [ "${lt:-0}" -ge 30 ] && [ $((100 * lok)) -ge $((99 * lt)) ]; then
		pass "gdb ukguest: $lok of $lt samples in memcpy/memset rooted, their caller recovered"
	else
		fail "gdb ukguest: leaf callers" "$lok of $lt: $(grep -E ';mem(cpy|set) ' "$OUT.folded" | grep -v '^long_entry;kmain' | head -2 | tr '\n' '|')"
	fi
	# per-library self shares: the SVG's library view vs the functions' owners
	"$UF" fold --by=lib "$OUT.svg" >"$OUT.lib" 2>>"$OUT.err"
	bad=
	for lib in libmusl libminexpr ukguest; do
		want=$(awk -v lib="$lib" '/^#/ { next } { n = $NF; s = substr($0, 1, length($0) - length(n) - 1)
			k = split(s, f, ";"); fn = f[k]; t += n
			o = fn ~ /^(memcpy|memset|strlen|uk_musl_checksum)$/ ? "libmusl" : fn ~ /^me_/ ? "libminexpr" : "ukguest"
			if (o == lib) h += n }
			END { printf "%.2f\n", t ? 100 * h / t : 0 }' "$OUT.folded")
		got=$(share "$OUT.lib" "$lib" self)
		within "$got" "$want" 1 && awk -v w="$want" 'BEGIN { exit !(w >= 2) }' || bad="$bad $lib:$got/$want"
	done
	[ -z "$bad" ] && pass "gdb ukguest: libmusl, libminexpr (fetched, relative DWARF path) and the app get their functions' shares" ||
		fail "gdb ukguest: library shares" "got/want:$bad"
	check_lib_table "gdb ukguest" "$OUT.err" "$OUT.lib"
else
	fail gdb-ukguest-build "examples/ukguest does not build"
fi

# QEMU killed mid-run.
boot app-test-1
OUT=$TMP/killed
timeout 60 "$UF" --gdb "unix:$SOCK" -x "$DBG" -F 99 -T 30 -o "$OUT.svg" --folded "$OUT.folded" \
	2>"$OUT.err" &
upid=$!
sleep 3
kill -9 "$QPID"
start=$(date +%s)
wait $upid; rc=$?
took=$(( $(date +%s) - start ))
QPID=
if [ $rc -eq 0 ] && [ -s "$OUT.folded" ] && grep -q 'function_3' "$OUT.svg" && [ $took -le 10 ]; then
	pass "gdb qemu killed: output written (exit 0, ${took}s after the kill)"
else
	fail "gdb qemu killed: output" "rc=$rc took=${took}s: $(tail -2 "$OUT.err" | tr '\n' ' ')"
fi
grep -q "gdb stub 'unix:$SOCK'.*closed" "$OUT.err" && pass "gdb qemu killed: message" ||
	fail "gdb qemu killed: message" "$(tr '\n' ' ' < "$OUT.err")"

# Ctrl-C: output written, the guest runs on after we detach.
boot app-test-1
OUT=$TMP/int
timeout 60 "$UF" --gdb "unix:$SOCK" -x "$DBG" -F 99 -T 30 -o "$OUT.svg" 2>"$OUT.err" &
upid=$!
sleep 3
kill -INT $upid
wait $upid; rc=$?
[ $rc -eq 0 ] && grep -q 'function_3' "$OUT.svg" && pass "gdb ctrl-c: output written" ||
	fail "gdb ctrl-c: output" "rc=$rc: $(tail -1 "$OUT.err")"
cc -std=gnu11 -O2 -I"$UF_TOP" -D_GNU_SOURCE -o "$TMP/gdb-sample" "$UF_TOP/tests/gdb/gdb-sample.c" \
	"$UF_TOP"/gdb-if/*.c "$UF_TOP/util/err.c"
ctr=$(nm "$DBG" | awk '$3 == "uf_rounds" { print $1 }')
rps=$(timeout 30 "$TMP/gdb-sample" "unix:$SOCK" -b -T 1 -c "$ctr" 2>&1 | awk '$1 == "counter_per_s" { print int($2) }')
[ "${rps:-0}" -gt 0 ] && pass "gdb ctrl-c: guest still running ($rps rounds/s)" ||
	fail "gdb ctrl-c: guest resumed" "round counter does not advance (${rps:-no reading})"
halt

# No stub there.
timeout 20 "$UF" --gdb "unix:$TMP/nothing.sock" -x "$DBG" -T 1 -o "$TMP/x.svg" >"$TMP/out" 2>&1; rc=$?
[ $rc -eq 3 ] && grep -q "^uniprof-flame: gdb stub 'unix:$TMP/nothing.sock': cannot connect" "$TMP/out" &&
	pass "gdb no stub: exit 3 with the address" || fail "gdb no stub" "rc=$rc: $(cat "$TMP/out")"
exit 0
