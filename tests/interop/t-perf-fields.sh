#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/interop/t-perf-fields.sh — `perf script` with custom field lists
# (-F), against stackcollapse-perf.pl (issue 31 item 5).
#
# The perf-ref oracle (t-perf.sh) holds perf's default layout only; users
# also run `perf script -F comm,pid,event,ip,sym,dso` and friends, whose
# headers lack the time (so no "time: event:" to recognise them by) and
# whose frame lines may have lost their tab (pasted, or stripped by a
# tool).  This records a short real profile with perf, prints it with each
# header and frame layout perf can print for a call graph (with and
# without tid, pid, cpu, time, period, event, symoff, dso, srcline), and
# with the frame lines' leading blanks removed, and requires `fold` to
# print what the script prints, as a multiset.
#
# Needs perf (perf record -e cpu-clock works unprivileged enough here) and
# stackcollapse-perf.pl: $STACKCOLLAPSE_PERF, else the peers' checkout
# (/work/shared/peers/build-peers.sh) or ../shared/flamegraph-ref.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"
sc=${STACKCOLLAPSE_PERF:-}
for c in "$HOME/.cache/uniprof-flame-peers/FlameGraph/stackcollapse-perf.pl" \
	"$SHARED/flamegraph-ref/stackcollapse-perf.pl"; do
	[ -z "$sc" ] && [ -f "$c" ] && sc=$c
done
[ -n "$sc" ] || { skip perf-fields "no stackcollapse-perf.pl (STACKCOLLAPSE_PERF=...)"; exit 0; }
command -v perf >/dev/null || { skip perf-fields "perf not installed (apt-get install linux-perf)"; exit 0; }
if ! perf record -q -e cpu-clock -c 200000 -g -o "$TMP/perf.data" -- \
	python3 -c 'sum(i * i for i in range(3000000))' >/dev/null 2>"$TMP/rec.err" ||
   [ "$(perf script -i "$TMP/perf.data" 2>/dev/null | grep -c 'cpu-clock')" -lt 20 ]; then
	skip perf-fields "perf record gave no samples here: $(tail -1 "$TMP/rec.err")"; exit 0
fi

# fold_like NAME : fold and the script agree on $TMP/ps.txt
fold_like() {
	perl "$sc" "$TMP/ps.txt" 2>/dev/null | LC_ALL=C sort >"$TMP/want"
	"$UF" fold "$TMP/ps.txt" 2>"$TMP/err" | LC_ALL=C sort >"$TMP/got"
	if [ -s "$TMP/want" ] && cmp -s "$TMP/want" "$TMP/got"; then
		pass "perf -F $1: $(wc -l <"$TMP/want") stacks as stackcollapse-perf.pl"
	else
		fail "perf -F $1" "script $(wc -l <"$TMP/want") lines, fold $(wc -l <"$TMP/got"): $(head -c 200 "$TMP/err")"
	fi
}
for f in comm,pid,event,ip,sym,dso comm,tid,event,ip,sym,dso comm,pid,tid,event,ip,sym,dso \
	comm,pid,ip,sym,dso comm,pid,time,ip,sym,dso comm,tid,time,event,ip,sym,dso \
	comm,pid,tid,time,event,ip,sym,symoff,dso comm,pid,tid,cpu,time,period,event,ip,sym,dso \
	comm,tid,period,event,ip,sym,dso comm,pid,tid,ip,sym,symoff,dso comm,tid,ip,dso \
	comm,pid,ip,sym comm,tid,time,event,ip,sym,dso,srcline; do
	perf script -i "$TMP/perf.data" -F "$f" >"$TMP/ps.txt" 2>/dev/null
	# layouts the script itself reads nothing from are not a contract
	[ -s "$TMP/ps.txt" ] && perl "$sc" "$TMP/ps.txt" 2>/dev/null | grep -q . || continue
	fold_like "$f"
	case $f in *dso*)
		sed -i 's/^[[:blank:]]*//' "$TMP/ps.txt"
		fold_like "$f (frame lines without their tab)" ;;
	esac
done
