#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/gdb/t-launch.sh — launch mode: `uniprof-flame ... --qemu --
# qemu-system-ARCH ARGS` starts QEMU paused with a private gdbstub and
# profiles the guest from its first instruction until QEMU exits.
#   - x86-64 (examples/qemu-guest, app-test-1) and AArch64
#     (examples/aarch64-guest, app-test-2) guests that end themselves after
#     `boot=3000 rounds=N`: QEMU's exit status reported and returned (3
#     through isa-debug-exit, 0 through PSCI SYSTEM_OFF), the console passed
#     through, the boot (kmain;boot_selftest) in the graph with at least
#     half of its share of the kernel's work (3000 units of boot before N
#     rounds of 10: a profile that starts late has little or none; on a
#     loaded host the boot measures above its share, as its wall time
#     includes QEMU's start), the workload's shares within +-3 points (at
#     -F 997, ~2600 samples: +-3 is three standard deviations of a 20 %
#     share; at 299 Hz the ~800 samples made it two, and CI failed), and
#     the private socket directory removed;
#   - -T: the outputs are written at -T while QEMU runs on, and we exit
#     when it does, with its status;
#   - SIGINT to uniprof-flame: outputs written, QEMU ended (SIGTERM: it
#     exits with 0, which we return);
#   - uniprof-flame killed (-9): QEMU does not outlive it;
#   - -o -: stdout is the SVG alone, the console goes to stderr;
#   - refusals: -s / -gdb in ARGS, not a qemu-system-*, no -x (exit 1); a
#     QEMU that cannot run or fails at start (exit 3).
# Holds /tmp/uf-qemu.lock for the whole script; every run is under timeout.
if [ -z "${UF_QEMU_LOCKED:-}" ]; then
	UF_QEMU_LOCKED=1 exec flock /tmp/uf-qemu.lock bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
command -v qemu-system-x86_64 >/dev/null || { skip launch "qemu-system-x86_64 not installed"; exit 0; }
"$UF" record --help 2>&1 | grep -q -- '--qemu' || { skip launch "uniprof-flame has no --qemu option"; exit 0; }
. "$UF_TOP/tests/record/lib-record.sh"
X86="$UF_TOP/build/examples/qemu-guest"
ARM="$UF_TOP/build/examples/aarch64-guest"
make --no-print-directory -s -C "$UF_TOP/examples/qemu-guest" >/dev/null ||
	{ fail launch-build "examples/qemu-guest does not build"; exit 0; }
have_arm=1
if ! command -v qemu-system-aarch64 >/dev/null || ! command -v aarch64-linux-gnu-gcc >/dev/null; then
	have_arm=
	skip "launch aarch64" "qemu-system-aarch64 or aarch64-linux-gnu-gcc not installed"
elif ! make --no-print-directory -s -C "$UF_TOP/examples/aarch64-guest" >/dev/null; then
	have_arm=; fail launch-build "examples/aarch64-guest does not build"
fi
export TMPDIR=$TMP   # where launch mode makes its private socket directory
ROUNDS=6000
BOOT_PCT=$(awk -v r=$ROUNDS 'BEGIN { printf "%.2f", 100 * 3000 / (3000 + 10 * r) }')

X86_QEMU=(qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none -serial stdio
	-device isa-debug-exit,iobase=0xf4,iosize=4 -kernel "$X86/qemu-guest.elf" -append)
ARM_QEMU=(qemu-system-aarch64 -M virt -cpu cortex-a57 -accel tcg -m 64 -nodefaults
	-display none -serial stdio -kernel "$ARM/aarch64-guest.elf" -append)
qemu_pid() { sed -n "s/.*' (pid \([0-9]*\)).*/\1/p" "$1" | head -1; }
gone() { # gone PID: not running within 5 s
	for _ in $(seq 50); do kill -0 "$1" 2>/dev/null || return 0; sleep 0.1; done; return 1; }

# kernel_shares FOLDED ROUND: boot's share of the kernel's samples, then
# the workload's rows (stacks through ROUND) into FOLDED.work
kernel_shares() {
	awk -v r="$2" 'index($0, "kmain;") { n = $NF; k += n; if (index($0, ";boot_selftest ")) b += n }
		END { printf "%.2f\n", k ? 100 * b / k : 0 }' "$1"
	grep "$2" "$1" > "$1.work"
}

# launch NAME EXPECT_STATUS APP TRUTH ENTRY DBG QEMU...: one run, checked.
launch() {
	local name=$1 status=$2 app=$3 entry=$4 dbg=$5; shift 5
	local out=$TMP/$name boot ok try
	for try in 1 2; do
		timeout 120 "$UF" -x "$dbg" -F 997 -o "$out.svg" --folded "$out.folded" --qemu -- "$@" \
			>"$out.console" 2>"$out.err"; rc=$?
		boot=$(kernel_shares "$out.folded" "${app//-/_}_round" | tr -d '\n')
		ok=1
		awk -v b="$boot" -v w="$BOOT_PCT" 'BEGIN { exit !(b >= w / 2) }' &&
			truth_ok "$out.folded.work" "$TRUTH/$app.truth" || ok=
		[ -n "$ok" ] && break
		echo "note: $name: run $try off (boot $boot%), once more"
	done
	[ $rc -eq "$status" ] && grep -q "exited with status $status\$" "$out.err" &&
		pass "$name: QEMU's exit status $status reported and returned" ||
		fail "$name: QEMU status" "rc=$rc: $(tail -2 "$out.err" | tr '\n' ' ')"
	grep -q "uniprof-flame guest: $app" "$out.console" && grep -q 'guest: done' "$out.console" &&
		pass "$name: console passed through" || fail "$name: console" "$(head -c 200 "$out.console")"
	has_chain "$out.folded" "$entry;kmain;boot_selftest" && pass "$name: boot in the graph ($entry;kmain;boot_selftest)" ||
		fail "$name: boot" "no stack $entry;kmain;boot_selftest"
	awk -v b="$boot" -v w="$BOOT_PCT" 'BEGIN { exit !(b >= w / 2) }' &&
		pass "$name: boot share $boot% of the kernel (its work is $BOOT_PCT%: at least half)" ||
		fail "$name: boot share" "got $boot%, want at least half of $BOOT_PCT%"
	check_truth "$name workload" "$out.folded.work" "$TRUTH/$app.truth"
	grep -q '<svg' "$out.svg" && grep -q 'boot_selftest' "$out.svg" && pass "$name: svg" || fail "$name: svg" "no boot_selftest"
	ls -d "$TMP"/uniprof-flame.* >/dev/null 2>&1 && fail "$name: socket directory" "left behind" ||
		pass "$name: private socket directory removed"
}

launch "launch x86-64" 3 app-test-1 long_entry "$X86/qemu-guest.dbg" "${X86_QEMU[@]}" "app-test-1 boot=3000 rounds=$ROUNDS"
[ -n "$have_arm" ] &&
	launch "launch aarch64" 0 app-test-2 enter "$ARM/aarch64-guest.elf" "${ARM_QEMU[@]}" "app-test-2 boot=3000 rounds=$ROUNDS"

# Run in the background without `timeout` in between (the tests signal
# uniprof-flame itself); bounded by a watchdog.
bg() { "$UF" "$@" & upid=$!; ( sleep 120; kill -9 $upid 2>/dev/null ) & wdog=$!; }
bg_end() { kill $wdog 2>/dev/null; wait $wdog 2>/dev/null; }

# -T: outputs at -T, QEMU runs on, we exit with it.
OUT=$TMP/T
bg -x "$X86/qemu-guest.dbg" -T 1.5 -o "$OUT.svg" --qemu -- \
	"${X86_QEMU[@]}" "app-test-1 rounds=$((ROUNDS * 2))" >"$OUT.console" 2>"$OUT.err"
for _ in $(seq 100); do [ -s "$OUT.svg" ] && break; sleep 0.1; done
qpid=$(qemu_pid "$OUT.err")
if [ -s "$OUT.svg" ] && kill -0 $upid 2>/dev/null && [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
	pass "launch -T: outputs written at -T, QEMU still running"
else
	fail "launch -T: outputs at -T" "svg=$(test -s "$OUT.svg" && echo yes) qemu=$qpid: $(tr '\n' ' ' < "$OUT.err")"
fi
wait $upid; rc=$?; bg_end
[ $rc -eq 3 ] && grep -q 'keeps running, waiting' "$OUT.err" && grep -q 'exited with status 3$' "$OUT.err" &&
	grep -q 'guest: done' "$OUT.console" && pass "launch -T: waited for QEMU to end, status reported" ||
	fail "launch -T: wait" "rc=$rc: $(tr '\n' ' ' < "$OUT.err")"

# SIGINT to us: outputs written, QEMU ended.
OUT=$TMP/int
bg -x "$X86/qemu-guest.dbg" -o "$OUT.svg" --qemu -- "${X86_QEMU[@]}" app-test-1 \
	>"$OUT.console" 2>"$OUT.err"
for _ in $(seq 100); do grep -q 'uniprof-flame guest' "$OUT.console" && break; sleep 0.1; done
sleep 1
kill -INT $upid
wait $upid; rc=$?; bg_end
qpid=$(qemu_pid "$OUT.err")
[ $rc -eq 0 ] && grep -q 'function_3' "$OUT.svg" && grep -q 'interrupted; ending QEMU' "$OUT.err" &&
	[ -n "$qpid" ] && gone "$qpid" && pass "launch ctrl-c: outputs written, QEMU ended" ||
	fail "launch ctrl-c" "rc=$rc qemu=$qpid: $(tr '\n' ' ' < "$OUT.err")"

# Killed outright: QEMU must not outlive us (left paused or running).
OUT=$TMP/kill9
bg -x "$X86/qemu-guest.dbg" -o "$OUT.svg" --qemu -- "${X86_QEMU[@]}" app-test-1 \
	>"$OUT.console" 2>"$OUT.err"
for _ in $(seq 100); do grep -q 'uniprof-flame guest' "$OUT.console" && break; sleep 0.1; done
qpid=$(pgrep -P $upid qemu-system-x86 | head -1)
kill -9 $upid; wait $upid 2>/dev/null; bg_end
[ -n "$qpid" ] && gone "$qpid" && pass "launch kill -9: QEMU ended with us" ||
	{ fail "launch kill -9" "QEMU ($qpid) still running"; [ -n "$qpid" ] && kill -9 "$qpid"; }

# -o -: stdout carries the SVG only.
OUT=$TMP/stdout
timeout 120 "$UF" -x "$X86/qemu-guest.dbg" -o - --qemu -- "${X86_QEMU[@]}" "app-test-1 rounds=1000" \
	>"$OUT.svg" 2>"$OUT.err"; rc=$?
[ $rc -eq 3 ] && head -c 200 "$OUT.svg" | grep -q '<svg\|<?xml' && ! grep -q 'uniprof-flame guest' "$OUT.svg" &&
	grep -q 'uniprof-flame guest: app-test-1' "$OUT.err" && xmllint --noout "$OUT.svg" 2>/dev/null &&
	pass "launch -o -: SVG alone on stdout, console on stderr" ||
	fail "launch -o -" "rc=$rc: $(head -c 100 "$OUT.svg")"

# Refusals.
refuse() { # refuse NAME RC PATTERN ARGS...
	local name=$1 want=$2 pat=$3; shift 3
	timeout 30 "$UF" "$@" >"$TMP/r.out" 2>&1; rc=$?
	# usage errors are one line; exit 3 may follow QEMU's own message
	[ $rc -eq "$want" ] && grep -q "^uniprof-flame: .*$pat" "$TMP/r.out" &&
		{ [ "$want" != 1 ] || [ "$(wc -l < "$TMP/r.out")" = 1 ]; } && pass "launch refuses $name (exit $want)" ||
		fail "launch refuses $name" "rc=$rc: $(head -2 "$TMP/r.out" | tr '\n' ' ')"
}
DBG=$X86/qemu-guest.dbg
refuse "-s" 1 "QEMU arguments hold '-s'" -x "$DBG" -o "$TMP/r.svg" --qemu -- qemu-system-x86_64 -s -kernel x
refuse "-gdb" 1 "QEMU arguments hold '-gdb'" -x "$DBG" -o "$TMP/r.svg" --qemu -- qemu-system-x86_64 -gdb tcp::9 -kernel x
refuse "--gdb in ARGS" 1 "QEMU arguments hold '--gdb'" -x "$DBG" -o "$TMP/r.svg" --qemu -- qemu-system-x86_64 --gdb tcp::9
refuse "a non-QEMU binary" 1 "'sleep' is not a QEMU system emulator" -x "$DBG" -o "$TMP/r.svg" --qemu -- sleep 5
refuse "qemu-x86_64 (user mode)" 1 "not a QEMU system emulator" -x "$DBG" -o "$TMP/r.svg" --qemu -- qemu-x86_64 /bin/true
refuse "no -x" 1 "'--qemu': needs -x" -o "$TMP/r.svg" --qemu -- qemu-system-x86_64
refuse "no command" 1 "'--qemu': needs the QEMU command" -x "$DBG" -o "$TMP/r.svg" --qemu
refuse "with --gdb" 1 "name one target" -x "$DBG" -o "$TMP/r.svg" --gdb :1 --qemu -- qemu-system-x86_64
refuse "a missing binary" 3 "'qemu-system-nothere': cannot run it: no such file" -x "$DBG" -o "$TMP/r.svg" --qemu -- qemu-system-nothere
refuse "QEMU failing at start" 3 "exited with status 1 before its gdbstub was up" -x "$DBG" -o "$TMP/r.svg" \
	--qemu -- qemu-system-x86_64 -display none -no-such-option
[ ! -e "$TMP/r.svg" ] && pass "launch refusals: no output written" || fail "launch refusals" "an output was written"
exit 0
