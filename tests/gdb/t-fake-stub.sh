#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/gdb/t-fake-stub.sh — gdb-if against a hostile stub (fake-stub.py):
# malformed, oversized, wrongly-checksummed, silent, noisy and vanishing
# stubs must give a clear one-line error and exit 3 — no crash (ASan and
# UBSan watch), no hang (each run is bounded by `timeout`; 124 = hang).
# A well-behaved stub (QEMU-like pipelining, plain ack mode, no-ack mode,
# run-length encoded replies)
# must give the exact pc and frame-pointer chain it serves.
#
# Drives the backend through tests/gdb/gdb-sample.c built with sanitizers,
# and through `uniprof-flame --gdb` when the record command is built.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip gdb-fake-stub "python3 not installed"; exit 0; }
SAMPLE=$TMP/gdb-sample
cc -std=gnu11 -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=all -I"$UF_TOP" \
	-D_GNU_SOURCE -o "$SAMPLE" "$UF_TOP/tests/gdb/gdb-sample.c" "$UF_TOP"/gdb-if/*.c \
	"$UF_TOP/util/err.c" || { fail gdb-fake-stub-build "gdb-sample does not build"; exit 0; }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1

# run_stub MODE CMD... : start the stub, run CMD against its socket (as
# $SOCK), leave the exit code in $rc and the output in $TMP/out.
run_stub() {
	local mode=$1; shift
	SOCK=$TMP/stub-$mode.sock
	python3 "$UF_TOP/tests/gdb/fake-stub.py" "$mode" "$SOCK" &
	local spid=$!
	for _ in $(seq 400); do [ -S "$SOCK" ] && break; sleep 0.05; done
	timeout 30 "$@" >"$TMP/out" 2>&1; rc=$?
	kill $spid 2>/dev/null; wait $spid 2>/dev/null
	rm -f "$SOCK"
}

# expect_error MODE PATTERN : gdb-sample fails with exit 3, one clear line.
expect_error() {
	local mode=$1 pat=$2
	run_stub "$mode" sh -c "\"$SAMPLE\" \"\$0\" -F 0 -n 20" "$TMP/stub-$mode.sock"
	if [ $rc -eq 124 ]; then fail "gdb-stub-$mode" "hung (killed by timeout)"; return; fi
	if grep -q 'Sanitizer\|runtime error' "$TMP/out"; then
		fail "gdb-stub-$mode" "sanitizer: $(grep -m1 'ERROR\|runtime error' "$TMP/out")"; return
	fi
	if [ $rc -ne 3 ] || ! grep -q "^gdb-sample: gdb stub '.*': .*$pat" "$TMP/out"; then
		fail "gdb-stub-$mode" "rc=$rc, want 3 and /$pat/: $(tail -1 "$TMP/out")"; return
	fi
	pass "gdb-stub-$mode"
}

expect_error badsum 'bad checksum'
expect_error oversized 'oversized reply'
expect_error bigreply 'oversized reply'
expect_error malformed 'malformed register reply'
expect_error noise 'malformed packet'
expect_error silent 'no reply within'
expect_error badstop 'unexpected stop reply'

# close: the socket closing mid-run ends sampling as "target gone".
run_stub close "$SAMPLE" "$TMP/stub-close.sock" -F 0 -n 50
if [ $rc -ne 124 ] && grep -q 'target gone after 5 samples' "$TMP/out" && grep -q '^samples 5$' "$TMP/out"; then
	pass gdb-stub-close
else
	fail gdb-stub-close "rc=$rc: $(tail -2 "$TMP/out" | tr '\n' ' ')"
fi

# Well-behaved stubs: the pc and the whole frame-pointer chain, root first
# (return addresses minus one: inside the call instruction).
for mode in good plain noack rle; do
	run_stub "$mode" "$SAMPLE" "$TMP/stub-$mode.sock" -F 0 -n 10 -s "$TMP/stacks"
	want="403332;402221;401234 1"
	if [ $rc -eq 0 ] && [ "$(sort -u "$TMP/stacks")" = "$want" ] && grep -q '^samples 10$' "$TMP/out"; then
		pass "gdb-stub-$mode"
	else
		fail "gdb-stub-$mode" "rc=$rc stacks='$(sort -u "$TMP/stacks" 2>/dev/null | head -2)' $(tail -1 "$TMP/out")"
	fi
done

# No stub at all: exit 3, the address tried in the message.
timeout 20 "$SAMPLE" 127.0.0.1:9 -n 1 >"$TMP/out" 2>&1; rc=$?
if [ $rc -eq 3 ] && grep -q "gdb stub '127.0.0.1:9': cannot connect" "$TMP/out"; then
	pass gdb-no-stub-backend
else
	fail gdb-no-stub-backend "rc=$rc: $(cat "$TMP/out")"
fi

# The same through the profiler's command line, once record is built.
if [ -x "$UF" ] && "$UF" record --help 2>&1 | grep -q -- '--gdb ADDR'; then
	timeout 20 "$UF" --gdb 127.0.0.1:9 --addrs -o "$TMP/x.svg" >"$TMP/out" 2>&1; rc=$?
	if [ $rc -eq 3 ] && grep -q "^uniprof-flame: gdb stub '127.0.0.1:9': cannot connect" "$TMP/out"; then
		pass gdb-no-stub-cli
	else
		fail gdb-no-stub-cli "rc=$rc: $(cat "$TMP/out")"
	fi
	run_stub malformed "$UF" --gdb "$TMP/stub-malformed.sock" --addrs -T 2 -o "$TMP/x.svg"
	if [ $rc -eq 3 ] && grep -q "^uniprof-flame: gdb stub '.*': malformed register reply" "$TMP/out"; then
		pass gdb-stub-malformed-cli
	else
		fail gdb-stub-malformed-cli "rc=$rc: $(tail -1 "$TMP/out")"
	fi
	# QEMU's stub stops a running guest on any byte it reads and drops
	# that byte: a `D` sent while the guest runs is lost and the guest stays
	# paused for good (a launched QEMU then never exits: t-launch.sh's
	# "launch -T: wait" hung so once).  Sampling ends with the guest
	# running, so detach must stop it first; the stub says how it was left.
	# runstate-acks: QEMU 8.1's rule in ack mode, where an owed `+` written
	# before the 0x03 stops the guest without a stop reply.
	for mode in runstate runstate-acks; do
		SOCK=$TMP/stub-$mode.sock
		rm -f "$SOCK" "$SOCK.state" "$TMP/rs.folded"
		python3 "$UF_TOP/tests/gdb/fake-stub.py" $mode "$SOCK" & spid=$!
		for _ in $(seq 400); do [ -S "$SOCK" ] && break; sleep 0.05; done
		timeout 30 "$UF" --gdb "$SOCK" --addrs -F 200 -T 1 -o "$TMP/rs.folded" >"$TMP/out" 2>&1; rc=$?
		for _ in $(seq 100); do kill -0 $spid 2>/dev/null || break; sleep 0.05; done
		kill $spid 2>/dev/null; wait $spid 2>/dev/null
		state=$(cat "$SOCK.state" 2>/dev/null)
		total=$(awk '!/^#/ {n += $NF} END {print n+0}' "$TMP/rs.folded" 2>/dev/null)
		if [ $rc -eq 0 ] && [ "$state" = "running detached" ] && [ "$total" -ge 100 ]; then
			pass "gdb-stub-$mode: $total samples, detach leaves the guest running"
		else
			fail "gdb-stub-$mode" "rc=$rc, $total samples (want 100+), stub left '$state' (want 'running detached'): $(tail -1 "$TMP/out")"
		fi
		rm -f "$SOCK" "$SOCK.state"
	done
	# The stub fails part-way (after 5 good stops): the 5 samples are
	# written (exactly 5 in the folded profile), and the exit code is 3,
	# not 0, so a script can tell the profile is incomplete.
	for mode in latestop lateregs; do
		rm -f "$TMP/late.folded"
		run_stub $mode "$UF" --gdb "$TMP/stub-$mode.sock" --addrs -F 200 -T 20 -o "$TMP/late.folded"
		total=$(awk '!/^#/ {n += $NF} END {print n+0}' "$TMP/late.folded" 2>/dev/null)
		if [ $rc -eq 3 ] && [ "$total" = 5 ] && grep -q "^uniprof-flame: gdb stub '.*': " "$TMP/out"; then
			pass "gdb-stub-$mode-partial"
		else
			fail "gdb-stub-$mode-partial" "rc=$rc (want 3) samples=$total (want 5): $(tail -2 "$TMP/out" | tr '\n' ' ')"
		fi
	done
else
	skip gdb-stub-cli "uniprof-flame has no --gdb option yet (record command not merged)"
fi
