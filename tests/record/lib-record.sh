# SPDX-License-Identifier: BSD-3-Clause
# tests/record/lib-record.sh — helpers for the record tests (source it
# after tests/lib.sh).
#
#   need_ptrace NAME       SKIP (and exit) when this machine cannot ptrace
#   start_bg PROG ARGS...  start PROG in the background; sets $BG_PID
#   ('#' lines of FOLDED, record's metadata as fold prints it, are skipped)
#   share FOLDED FN MODE   percent of samples with FN as leaf (self) or
#                          anywhere in the stack (total)
#   has_chain FOLDED CHAIN does some stack contain CHAIN (a;b;c) as a run?
#   check_truth NAME FOLDED TRUTHFILE   one PASS/FAIL per truth row (+-3 pp)
#   truth_ok FOLDED TRUTHFILE           silent: do all rows hold?
#   record_truth NAME TRUTH CMD...      runs CMD (which writes $OUT.folded)
#                          and checks it against TRUTH; when a share is
#                          off, records once more and judges the second run
#                          (a loaded 2-core machine can starve the target
#                          for long stretches, which clusters samples)
#   proc_state PID         one-letter state from /proc (R S D t T Z, or -)
#   rooted FOLDED          percent of samples whose stack holds main with
#                          _start or __libc_start_main* as its root frame
#   check_rooted NAME FOLDED   PASS when rooted >= 95 %
#   rooted_at FOLDED ROOTS percent of samples whose stack starts with ROOTS
#                          (a;b: the first frames, root side first)
#   complete_pct ERR       percent of walks the summary in ERR calls complete
#                          (the last summary, when a run was repeated)
#   lib_table ERR          record's live per-library table in ERR, one
#                          "LIBRARY SELF TOTAL" line per row (percent)
#   check_lib_table NAME ERR FOLDED   PASS when every row of that table
#                          equals FOLDED's self and total shares (+-0.1:
#                          the table's rounding); FOLDED is `fold --by=lib`
#                          of the SVG the same run wrote
EXAMPLES="${EXAMPLES:-$UF_TOP/build/examples}"
TRUTH="$UF_TOP/examples/workloads"
TOL="${UF_SHARE_TOL:-3}"

need_ptrace() {
	local name=$1
	if [ ! -x "$EXAMPLES/app-test-1" ]; then
		skip "$name" "examples not built (run make examples)"; exit 0
	fi
	if ! "$UF" -q -T 0.2 --folded "$TMP/probe.folded" -- "$EXAMPLES/app-test-1" 2 \
		>/dev/null 2>"$TMP/probe.err"; then
		skip "$name" "cannot ptrace here: $(tail -1 "$TMP/probe.err")"; exit 0
	fi
}

start_bg() {
	"$@" &
	BG_PID=$!
	# wait until the program runs its own code, not the shell's
	local i
	for i in $(seq 50); do
		[ "$(readlink "/proc/$BG_PID/exe" 2>/dev/null)" = "$(readlink -f "$1")" ] && return 0
		sleep 0.02
	done
	return 1
}

share() {
	awk -v fn="$2" -v mode="$3" '
	/^#/ { next }
	{ n = $NF; stack = substr($0, 1, length($0) - length(n) - 1); total += n
	  k = split(stack, f, ";")
	  # a waiting sample ends in a state frame (issue 30): its leaf is below it
	  if (k > 1 && f[k] ~ /^\[(runnable|blocked|offline)\]$/) k--
	  if (mode == "self") { if (f[k] == fn) hit += n }
	  else { for (i = 1; i <= k; i++) if (f[i] == fn) { hit += n; break } } }
	END { if (total == 0) print "nan"; else printf "%.2f\n", 100 * hit / total }' "$1"
}

has_chain() {
	awk -v c="$2" '/^#/ { next } { n = $NF; s = ";" substr($0, 1, length($0) - length(n) - 1) ";"
	  if (index(s, ";" c ";")) found = 1 } END { exit !found }' "$1"
}

within() { # within GOT WANT TOL
	awk -v g="$1" -v w="$2" -v t="$3" 'BEGIN { d = g - w; if (d < 0) d = -d; exit !(g != "nan" && d <= t) }'
}

check_truth() {
	local name=$1 folded=$2 truth=$3 fn pct mode chain got
	while IFS=$'\t' read -r fn pct mode chain; do
		case "$fn" in '#'*|'') continue ;; esac
		got=$(share "$folded" "$fn" "$mode")
		if within "$got" "$pct" "$TOL"; then
			pass "$name: $fn $mode share $got% (truth $pct% +-$TOL)"
		else
			fail "$name: $fn $mode share" "got $got%, truth $pct% +-$TOL"
		fi
		if has_chain "$folded" "$chain"; then
			pass "$name: chain $chain"
		else
			fail "$name: chain $chain" "not in any stack"
		fi
	done < "$truth"
}

proc_state() {
	awk '/^State:/ { print $2; f = 1 } END { if (!f) print "-" }' "/proc/$1/status" 2>/dev/null || echo -
}

truth_ok() {
	local folded=$1 truth=$2 fn pct mode chain got
	while IFS=$'\t' read -r fn pct mode chain; do
		case "$fn" in '#'*|'') continue ;; esac
		got=$(share "$folded" "$fn" "$mode")
		within "$got" "$pct" "$TOL" || return 1
	done < "$truth"
	return 0
}

record_truth() {
	local name=$1 truth=$2; shift 2
	"$@" || { fail "$name: recorded" "exit $?"; return 1; }
	# up to five recordings: a busy host can bias one run's shares, and
	# its slow spells last a while (CI, session 21: t-libs' three runs all
	# off in one, 12-18 missed deadlines each, then 3 of 3 passing); a
	# wrong profiler is off in all five
	local try=1
	while ! truth_ok "$OUT.folded" "$truth" && [ $try -lt 5 ]; do
		echo "note: $name: run $try off ($(tr '\n' ' ' < "$OUT.folded" | cut -c1-300)); recording again"
		"$@" || { fail "$name: recorded" "exit $?"; return 1; }
		try=$((try + 1))
	done
	pass "$name: recorded"
	check_truth "$name" "$OUT.folded" "$truth"
}

# check_samples NAME FOLDED ERR HZ: enough samples for the shares (1000), or,
# where a slow host kept the sampler from its rate, at least 500 and the
# shortfall owned up to: samples + missed deadlines (the last summary in
# ERR) make up the requested count within 10 %.  The rate itself is a
# benchmark figure (bench/gdb.sh), not a test.
check_samples() {
	local name=$1 n line got missed secs
	n=$(awk '!/^#/ { s += $NF } END { print s + 0 }' "$2" 2>/dev/null)
	if [ "${n:-0}" -ge 1000 ]; then pass "$name: $n samples"; return; fi
	line=$(grep ' samples (.* missed deadline' "$3" | tail -n 1)
	got=$(sed -n 's/.*: \([0-9]*\) samples (.*/\1/p' <<<"$line")
	secs=$(sed -n 's/.* in \([0-9.]*\) s, .*/\1/p' <<<"$line")
	missed=$(sed -n 's/.* \([0-9]*\) missed deadline.*/\1/p' <<<"$line")
	if [ "${n:-0}" -ge 500 ] && awk -v g="${got:-0}" -v m="${missed:-0}" -v s="${secs:-0}" -v f="$4" \
		'BEGIN { exit !(g + m >= 0.9 * f * s) }'; then
		pass "$name: $n samples (slow host: ${missed} missed deadlines reported)"
	else
		fail "$name: samples" "only ${n:-0}: ${line:-no summary}"
	fi
}

rooted() {
	awk '/^#/ { next } { n = $NF; stack = substr($0, 1, length($0) - length(n) - 1); total += n
	  k = split(stack, f, ";")
	  if (f[1] != "_start" && f[1] !~ /^__libc_start_main/) next
	  for (i = 2; i <= k; i++) if (f[i] == "main") { hit += n; break } }
	END { if (total == 0) print "0"; else printf "%.1f\n", 100 * hit / total }' "$1"
}

check_rooted() {
	local got
	got=$(rooted "$2")
	if awk -v g="$got" 'BEGIN { exit !(g >= 95) }'; then
		pass "$1: $got% of samples rooted at _start/__libc_start_main and main"
	else
		fail "$1: rooted at main" "only $got% ($(sort -t' ' -k2 -nr "$2" | head -2 | tr '\n' '|'))"
	fi
}

rooted_at() {
	awk -v r="$2" '/^#/ { next } { n = $NF; s = substr($0, 1, length($0) - length(n) - 1) ";"; total += n
	  if (index(s, r ";") == 1) hit += n }
	END { if (total == 0) print "0"; else printf "%.1f\n", 100 * hit / total }' "$1"
}

# walks (--unwind=M): N complete, N at max depth, N ended early (...)
complete_pct() {
	sed -n 's/.*walks (--unwind=[a-z]*): \([0-9]*\) complete, \([0-9]*\) at max depth, \([0-9]*\) ended early.*/\1 \2 \3/p' "$1" |
		tail -n 1 | awk '{ t = $1 + $2 + $3; if (t) printf "%d\n", 100 * $1 / t; else print 0 }'
}

lib_table() {
	awk '/uniprof-flame: library +self +total/ { on = 1; next }
		on && /^uniprof-flame:   [^ (]/ { gsub("%", ""); print $2, $3, $4 }' "$1"
}

check_lib_table() {
	local name=$1 table lib self total s t bad=
	table=$(lib_table "$2")
	while read -r lib self total; do
		[ -n "$lib" ] || continue
		s=$(share "$3" "$lib" self) t=$(share "$3" "$lib" total)
		within "$s" "$self" 0.1 && within "$t" "$total" 0.1 || bad="$bad $lib:$self/$total vs $s/$t"
	done <<<"$table"
	if [ -n "$table" ] && [ -z "$bad" ]; then
		pass "$name: the live per-library table equals fold --by=lib of the SVG"
	else
		fail "$name: table vs SVG" "${bad:-no table in $(tr '\n' ' ' < "$2")}"
	fi
}
