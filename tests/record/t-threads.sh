#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-threads.sh — every thread is sampled in every round and
# its samples are attributed to it: uf-worker-N runs only function_N.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace threads

f="$TMP/threads.folded"
# A worker queued for a CPU (a loaded machine) ends its stack in a
# [runnable] frame (issue 30): these checks count where each thread was,
# so the state leaf is dropped first.
no_state() { sed -E -i 's/;\[(runnable|blocked|offline)\] ([0-9]+)$/ \2/' "$1"; }
# per_worker: each uf-worker-N's samples in function_N and nowhere else
per_worker() {
	grep -q 'up to 4 threads' "$TMP/err" && pass "threads: 4 threads seen" ||
		fail "threads: 4 threads seen" "$(head -1 "$TMP/err")"
	rounds=$(awk '/^app-threads-/ { s += $NF } END { print s + 0 }' "$f")
	for n in 1 2 3; do
		own=$(awk -v r="^uf-worker-$n-" -v fn="function_$n" '$0 ~ r { t += $NF; if ($0 ~ ";" fn " ") h += $NF }
			END { if (t) printf "%d %d", t, 100 * h / t; else print "0 0" }' "$f")
		other=$(awk -v r="^uf-worker-$n-" -v fn="function_$n" '$0 ~ r && $0 ~ /;function_[123] / && $0 !~ ";" fn " "' "$f" | wc -l)
		set -- $own
		if [ "$1" -ge $((rounds * 8 / 10)) ] && [ "$2" -ge 95 ] && [ "$other" -eq 0 ]; then
			pass "threads: uf-worker-$n: $1 samples, $2% in function_$n, none elsewhere"
		else
			fail "threads: uf-worker-$n" "samples $1 of $rounds rounds, $2% in function_$n, $other foreign stacks"
		fi
	done
}
if "$UF" -F 999 -T 2 --per-thread --folded "$f" -- "$EXAMPLES/app-threads" 3 2>"$TMP/err"; then
	no_state "$f"
	per_worker
else
	fail "threads: recorded" "$(tail -1 "$TMP/err")"
fi

# merged (no --per-thread): the three workers' functions in 1 : 1 : 1
# (loosely: under load a thread that is not scheduled within the stop
# budget misses a round)
"$UF" -q -F 999 -T 2 --folded "$TMP/m.folded" -- "$EXAMPLES/app-threads" 3
no_state "$TMP/m.folded"
for n in 1 2 3; do
	got=$(awk -v fn="function_$n" '/;function_[123] / { t += $NF; if (index($0, ";" fn " ")) h += $NF }
		END { if (t) printf "%.1f", 100 * h / t; else print "nan" }' "$TMP/m.folded")
	within "$got" 33.3 10 && pass "threads merged: function_$n $got% of worker samples (~33%)" ||
		fail "threads merged: function_$n" "got $got% of worker samples, want 33 +-10"
done


# attach to a process whose threads already run: every one is seized
start_bg "$EXAMPLES/app-threads" 4 || fail "threads -p: start"
sleep 0.3
"$UF" -F 499 -T 1 --per-thread --folded "$TMP/p.folded" -p "$BG_PID" 2>"$TMP/p.err"
ok=1
for n in 1 2 3; do
	grep -q "^uf-worker-$n-$BG_PID/[0-9]*;.*;function_$n " "$TMP/p.folded" || ok=0
done
[ $ok = 1 ] && grep -q 'up to 4 threads' "$TMP/p.err" && pass "threads -p: all 4 threads seized and named" ||
	fail "threads -p" "$(cut -c1-60 "$TMP/p.folded" | tr '\n' '|')"
kill "$BG_PID" 2>/dev/null; wait "$BG_PID" 2>/dev/null
exit 0
