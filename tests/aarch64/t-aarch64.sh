#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/aarch64/t-aarch64.sh — the AArch64 example guest
# (examples/aarch64-guest) under `qemu-system-aarch64 -M virt` (software
# emulation), profiled through the real gdbstub with `uniprof-flame --gdb`:
#   - frame-pointer build, app-test-1 and app-test-2 on one vCPU: >= 1000
#     samples, every share within +-3 points of examples/workloads/*.truth,
#     the whole chain from the entry (enter;kmain;app_test_N_round;...);
#   - two vCPUs running different workloads (`mixed`: vCPU 1 app-test-1,
#     vCPU 2 app-test-2) with --per-vcpu: each vCPU's tower holds only its
#     own workload, with its own shares and chains (registers and stacks
#     were read from the right vCPU);
#   - the build without frame pointers (-O2 -fomit-frame-pointer, frameless
#     leaves) with --unwind=cfi: shares and whole chains, and as a control
#     --unwind=fp finding no whole chain there; SKIP when this uniprof-flame
#     has no CFI unwinder (--unwind, issue 10);
#   - run state (issue 30): the `phases` mode (phase_a computes, phase_wait
#     halts in `wfi` until the virtual timer, phase_b computes, 0.5 s each
#     by the generic timer's counter, 4 cycles) recorded from its first
#     instruction (--qemu); the guest's own counter ticks per phase are the
#     truth.  The blocked share within 5 pp of phase_wait's share,
#     >= 95 % of phase_wait's samples blocked and >= 95 % of the compute
#     phases' running, --on-cpu's phase_a : phase_b within 3 pp (the
#     gdb backend's `wfi` rule, docs/run-state.md).
# The frame-pointer build is walked with --unwind=fp (frame records only).
# Holds /tmp/uf-qemu.lock for the whole script; every QEMU runs under timeout.
if [ -z "${UF_QEMU_LOCKED:-}" ]; then
	UF_QEMU_LOCKED=1 exec flock /tmp/uf-qemu.lock bash "$0" "$@"
fi
. "$(dirname "$0")/../lib.sh"
GUEST="$UF_TOP/build/examples/aarch64-guest"
command -v qemu-system-aarch64 >/dev/null || { skip aarch64 "qemu-system-aarch64 not installed (qemu-system-arm)"; exit 0; }
command -v aarch64-linux-gnu-gcc >/dev/null || { skip aarch64 "aarch64-linux-gnu-gcc not installed (gcc-aarch64-linux-gnu)"; exit 0; }
. "$UF_TOP/tests/record/lib-record.sh"
make --no-print-directory -s -C "$UF_TOP/examples/aarch64-guest" >/dev/null ||
	{ fail aarch64-build "examples/aarch64-guest does not build"; exit 0; }
QPID=

# boot ELF APPEND [QEMU ARGS...]: QEMU (TCG) with the gdbstub on $SOCK.
boot() {
	local elf=$1 app=$2; shift 2
	SOCK=$TMP/gdb.sock
	rm -f "$SOCK" "$TMP/qemu.pid" "$TMP/serial.log"
	(timeout 120 qemu-system-aarch64 -M virt -cpu cortex-a57 -accel tcg -m 64 -nodefaults \
		-display none -serial "file:$TMP/serial.log" -kernel "$elf" -append "$app" "$@" \
		-pidfile "$TMP/qemu.pid" -gdb "unix:$SOCK,server=on,wait=off" 2>>"$TMP/qemu.err"; exit $?) &
	for _ in $(seq 200); do [ -S "$SOCK" ] && [ -s "$TMP/qemu.pid" ] && break; sleep 0.05; done
	QPID=$(cat "$TMP/qemu.pid" 2>/dev/null)
	for _ in $(seq 200); do grep -q 'uniprof-flame guest' "$TMP/serial.log" 2>/dev/null && break; sleep 0.05; done
}
halt() { [ -n "$QPID" ] && kill "$QPID" 2>/dev/null; wait 2>/dev/null; QPID=; }
trap 'halt; rm -rf "$TMP"' EXIT

# accuracy NAME ELF APP [UF OPTIONS...]: shares, samples, whole chain.
accuracy() {
	local name=$1 elf=$2 app=$3; shift 3
	boot "$elf" "$app"
	OUT="$TMP/$name"
	record_truth "$name" "$TRUTH/$app.truth" \
		timeout 60 "$UF" --gdb "unix:$SOCK" -x "$elf" -F 299 -T 8 -o "$OUT.svg" \
		--folded "$OUT.folded" "$@" 2>"$OUT.err"
	local top
	check_samples "$name" "$OUT.folded" "$OUT.err" 299
	top=$([ "$app" = app-test-1 ] && echo "enter;kmain;app_test_1_round;function_3" ||
		echo "enter;kmain;app_test_2_round;t2_function_2;t2_function_5")
	has_chain "$OUT.folded" "$top" && pass "$name: whole chain from the entry point" ||
		fail "$name: whole chain" "no stack $top"
	halt
}

# The frame-record walker itself (where the build has a choice of unwinder:
# its default would use the CFI the FP build carries too).
FP=()
"$UF" record --help 2>&1 | grep -q -- '--unwind' && FP=(--unwind=fp)
for app in app-test-1 app-test-2; do
	accuracy "aarch64 fp $app" "$GUEST/aarch64-guest.elf" "$app" "${FP[@]}"
done

# Two vCPUs, different workloads, one tower each.  12 s, and up to three
# runs when a share is off (record_truth allows two): on a loaded host a
# descheduled vCPU thread gathers runs of samples at one place, and with
# two vCPU threads this happens twice as often.
tower() { awk -v p="$1;" 'index($0, p) == 1 { print substr($0, length(p) + 1) }' "$OUT.folded"; }
OUT=$TMP/smp
for try in 1 2 3; do
	boot "$GUEST/aarch64-guest.elf" mixed -smp 2
	timeout 60 "$UF" --gdb "unix:$SOCK" -x "$GUEST/aarch64-guest.elf" -F 299 -T 12 --per-vcpu "${FP[@]}" \
		-o "$OUT.svg" --folded "$OUT.folded" 2>"$OUT.err"; rc=$?
	halt
	tower vcpu-1 > "$OUT.1"
	tower vcpu-2 > "$OUT.2"
	truth_ok "$OUT.1" "$TRUTH/app-test-1.truth" && truth_ok "$OUT.2" "$TRUTH/app-test-2.truth" && break
	echo "note: aarch64 smp: run $try off; recording again"
done
[ $rc -eq 0 ] && grep -q 'up to 2 threads' "$OUT.err" && pass "aarch64 smp: 2 vCPUs sampled" ||
	fail "aarch64 smp: 2 vCPUs" "rc=$rc: $(tr '\n' ' ' < "$OUT.err")"
check_truth "aarch64 smp vcpu-1" "$OUT.1" "$TRUTH/app-test-1.truth"
check_truth "aarch64 smp vcpu-2" "$OUT.2" "$TRUTH/app-test-2.truth"
has_chain "$OUT.2" "enter;secondary_main;app_test_2_round" &&
	pass "aarch64 smp: vcpu-2 rooted at secondary_main" || fail "aarch64 smp: vcpu-2 chain" "no secondary_main"
! grep -q 't2_function' "$OUT.1" && ! grep -qw 'function_1' "$OUT.2" &&
	pass "aarch64 smp: no workload in the other vCPU's tower" ||
	fail "aarch64 smp: towers" "a workload appears under the wrong vCPU"

# No frame pointers: only CFI can unwind it.
if "$UF" record --help 2>&1 | grep -q -- '--unwind'; then
	for app in app-test-1 app-test-2; do
		accuracy "aarch64 nofp cfi $app" "$GUEST/aarch64-guest-nofp.elf" "$app" --unwind=cfi
	done
	# control: frame records alone cannot unwind this build
	boot "$GUEST/aarch64-guest-nofp.elf" app-test-1
	timeout 60 "$UF" --gdb "unix:$SOCK" -x "$GUEST/aarch64-guest-nofp.elf" -F 299 -T 3 --unwind=fp \
		--folded "$TMP/nofp-fp.folded" 2>"$TMP/nofp-fp.err"
	halt
	[ -s "$TMP/nofp-fp.folded" ] && ! has_chain "$TMP/nofp-fp.folded" "enter;kmain;app_test_1_round;function_3" &&
		pass "aarch64 nofp: --unwind=fp misses the chains CFI finds (control)" ||
		fail "aarch64 nofp control" "frame records gave whole chains, or no output: $(tail -1 "$TMP/nofp-fp.err")"
else
	skip "aarch64 nofp" "this uniprof-flame has no --unwind option: the CFI unwinder (issue 10) is not in this build"
fi
# Run state: the wfi halt rule against the guest's own counter.
ST="python3 $UF_TOP/tests/record/states.py"
cnt_of() { awk -v p="$1" '$1 == "truth" && $2 == p { print $4 }' "$TMP/serial.log"; }
phases() {
	rm -f "$TMP/serial.log"
	timeout 120 "$UF" -x "$GUEST/aarch64-guest.elf" -F 299 "${FP[@]}" --raw "$TMP/ph.raw" \
		--folded "$TMP/ph.folded" -o "$TMP/ph.svg" --qemu -- qemu-system-aarch64 -M virt -cpu cortex-a57 \
		-accel tcg -m 64 -nodefaults -display none -serial "file:$TMP/serial.log" \
		-kernel "$GUEST/aarch64-guest.elf" -append "phases rounds=4" 2>"$TMP/ph.err"
	grep -q '^truth phase_b' "$TMP/serial.log" ||
		{ echo "no truth from the guest: $(tail -1 "$TMP/ph.err")" >"$TMP/why"; return 1; }
	"$UF" fold --on-cpu --symbols "$GUEST/aarch64-guest.elf" "$TMP/ph.raw" >"$TMP/ph-on.folded" 2>>"$TMP/ph.err"
	local a w b want_blk want_a blk n wblk arun brun ona onb
	a=$(cnt_of phase_a) w=$(cnt_of phase_wait) b=$(cnt_of phase_b)
	want_blk=$(awk -v a="$a" -v w="$w" -v b="$b" 'BEGIN { printf "%.1f", 100 * w / (a + w + b) }')
	want_a=$(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f", 100 * a / (a + b) }')
	set -- $($ST state "$TMP/ph.folded"); blk=$6 n=${10}
	wblk=$($ST under "$TMP/ph.folded" phase_wait blocked)
	arun=$($ST under "$TMP/ph.folded" phase_a running)
	brun=$($ST under "$TMP/ph.folded" phase_b running)
	set -- $($ST share "$TMP/ph-on.folded" phase_a phase_b); ona=$1 onb=$2
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
if phases || { echo "note: aarch64 states: run 1 off ($(tr '\n' ';' <"$TMP/why")); recording again"; phases; }; then
	while read -r line; do pass "aarch64 states: phases: $line"; done <"$TMP/why"
else
	fail "aarch64 states: phases" "$(tr '\n' ';' <"$TMP/why")"
fi
exit 0
