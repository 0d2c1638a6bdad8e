#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-errors.sh — bad -x (exit 2), bad or untraceable PID
# (exit 3), a command that cannot run (exit 3), usage errors (exit 1);
# each with one "uniprof-flame: <what>: <why>" line.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace errors

expect() { # expect NAME STATUS PATTERN CMD...
	local name=$1 want=$2 pat=$3; shift 3
	"$@" >"$TMP/out" 2>"$TMP/err"; local rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$TMP/err"; then
		pass "$name: exit $want"
	else
		fail "$name" "exit $rc (want $want), stderr: $(head -2 "$TMP/err" | tr '\n' '|')"
	fi
}

echo "not an elf" > "$TMP/text"
expect "-x text file" 2 "uniprof-flame: .*text.*not an ELF" \
	"$UF" -x "$TMP/text" -T 1 -o "$TMP/x.svg" -- "$EXAMPLES/app-test-1" 1
cp "$EXAMPLES/app-test-1" "$TMP/stripped"; strip --strip-all "$TMP/stripped" 2>/dev/null
objcopy --remove-section .dynsym "$TMP/stripped" 2>/dev/null
expect "-x stripped ELF" 2 "no function symbols" \
	"$UF" -x "$TMP/stripped" -T 1 -o "$TMP/x.svg" -- "$EXAMPLES/app-test-1" 1
expect "-x missing file" 2 "uniprof-flame: .*nonexistent" \
	"$UF" -x "$TMP/nonexistent" -T 1 -o "$TMP/x.svg" -- "$EXAMPLES/app-test-1" 1
[ ! -e "$TMP/x.svg" ] && pass "bad -x: no output written" || fail "bad -x: no output written"

# a pid that does not exist: the largest possible one, checked free
pid=$(cat /proc/sys/kernel/pid_max); pid=$((pid - 1))
while [ -e "/proc/$pid" ]; do pid=$((pid - 1)); done
expect "nonexistent pid" 3 "uniprof-flame: pid $pid: no such process" "$UF" -p "$pid" -T 1 -o "$TMP/p.svg"

# a process that is already traced cannot be traced again
start_bg "$EXAMPLES/app-test-1" 10
"$UF" -q -F 99 -T 4 --folded "$TMP/first.folded" -p "$BG_PID" & first=$!
sleep 0.5
expect "already traced pid" 3 "uniprof-flame: pid $BG_PID: cannot trace" \
	"$UF" -p "$BG_PID" -T 1 -o "$TMP/p2.svg"
wait "$first"
kill "$BG_PID" 2>/dev/null; wait "$BG_PID" 2>/dev/null

expect "output directory missing" 2 "uniprof-flame: .*/no-such-dir/o.svg: cannot write here" \
	"$UF" -T 1 -o "$TMP/no-such-dir/o.svg" -- "$EXAMPLES/app-test-1" 1
expect "command not found" 3 "cannot run" "$UF" -T 1 -o "$TMP/c.svg" -- "$TMP/no-such-program"
expect "no target" 1 "name one target" "$UF" -o "$TMP/u.svg"
expect "no output" 1 "no output" "$UF" -p 1
expect "bad -F" 1 "-F" "$UF" -F abc -p 1 -o "$TMP/u.svg"
expect "stray argument" 1 "unexpected argument" "$UF" -o "$TMP/u.svg" "$EXAMPLES/app-test-1"
expect "bad --state" 1 "'--state': 'asleep' is not a state" "$UF" --state asleep -p 1 -o "$TMP/u.svg"
# --on-cpu: a target that tells no run states keeps no sample (exit 2, saying
# why), the raw trace is still written whole; one that tells draws no wait
"$UF" -q -F 200 -T 0.5 --on-cpu --raw "$TMP/oc.raw" --folded "$TMP/oc.folded" -- \
	"$EXAMPLES/app-test-1" 1 >/dev/null 2>"$TMP/oc.err"
rc=$?
if [ $rc = 2 ]; then
	[ "$(wc -l <"$TMP/oc.err")" = 1 ] && grep -q "does not tell run states" "$TMP/oc.err" &&
		[ "$(grep -c '^#sample' "$TMP/oc.raw")" -gt 10 ] &&
		pass "record --on-cpu without run states: exit 2, one line saying so, --raw still written" ||
		fail "record --on-cpu without run states" "$(cat "$TMP/oc.err")"
else
	[ $rc = 0 ] && [ -s "$TMP/oc.folded" ] && ! grep -q '\[blocked\]\|\[runnable\]' "$TMP/oc.folded" &&
		pass "record --on-cpu: no wait drawn" || fail "record --on-cpu" "exit $rc: $(head -1 "$TMP/oc.err")"
fi
exit 0
