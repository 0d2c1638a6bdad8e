#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-meta.sh — an SVG that says how it was made: record writes
# its metadata (target, -x and build id, start, duration, rates, samples,
# missed deadlines, unwinder, threads, version, command line) into the
# SVG (a subtitle and <metadata id="uniprof-flame-meta">) and as '#' lines
# into folded text; render, diff and fold of such files keep it, and the
# folded reader skips the '#' lines (no "invalid line" warning).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/lib-record.sh"
need_ptrace meta

"$UF" -F 199 -T 1.5 --unwind cfi -x "$EXAMPLES/app-test-1" -o "$TMP/r.svg" --folded "$TMP/r.folded" \
	-- "$EXAMPLES/app-test-1" 1 2>"$TMP/r.err"
[ -s "$TMP/r.svg" ] || { fail "meta: record" "$(tail -1 "$TMP/r.err")"; exit 0; }

meta() { # FILE KEY -> the value in the SVG's metadata element
	awk -v k="$2" '/<metadata id="uniprof-flame-meta">/ { on = 1; next } /<\/metadata>/ { on = 0 }
		on && index($0, k ": ") == 1 { print substr($0, length(k) + 3); exit }' "$1"
}
samples=$(sed -n 's/.*: \([0-9]*\) samples (.*/\1/p' "$TMP/r.err" | head -1)
bid=$(readelf -n "$EXAMPLES/app-test-1" | awk '/Build ID/ { print $3 }')
ok=1 why=
for kv in "target=process &#39;$EXAMPLES/app-test-1&#39;" "exe=$EXAMPLES/app-test-1" "build-id=${bid:-none}" \
	"rate-requested=199 Hz" "samples=$samples (" "unwind=cfi" "threads=1" "version=uniprof-flame " \
	"command=uniprof-flame -F 199 -T 1.5 --unwind cfi -x $EXAMPLES/app-test-1"; do
	k=${kv%%=*} v=${kv#*=}
	got=$(meta "$TMP/r.svg" "$k")
	case "$got" in "$v"*) ;; *) ok=0 why="$why $k='$got' (want '$v...')";; esac
done
for k in start duration rate-achieved missed-deadlines; do
	[ -n "$(meta "$TMP/r.svg" "$k")" ] || { ok=0 why="$why no $k"; }
done
[ "$ok" = 1 ] && pass "meta: record writes target, -x and build id, rates, samples, unwinder, command" ||
	fail "meta: record's metadata" "$why"
start=$(meta "$TMP/r.svg" start)
[[ "$start" =~ ^20[0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9:]{8}Z$ ]] && pass "meta: start time in UTC ($start)" ||
	fail "meta: start time" "'$start'"
sub=$(grep -o '<text id="subtitle"[^>]*>[^<]*' "$TMP/r.svg" | sed 's/.*>//')
case "$sub" in "app-test-1 (pid "*", $start, "*" samples at "*"/199 Hz, "*" missed, unwind cfi")
	pass "meta: subtitle line ($sub)";;
	*) fail "meta: subtitle line" "'$sub'";; esac

# render of the recorded SVG keeps metadata and subtitle; --subtitle wins
"$UF" render "$TMP/r.svg" -o "$TMP/re.svg" 2>"$TMP/re.err"
[ "$(meta "$TMP/re.svg" command)" = "$(meta "$TMP/r.svg" command)" ] &&
	grep -qF "$sub" "$TMP/re.svg" && pass "meta: render keeps it" || fail "meta: render keeps it"
"$UF" render --subtitle mine "$TMP/r.svg" -o "$TMP/re2.svg"
grep -q '<text id="subtitle"[^>]*>mine<' "$TMP/re2.svg" && [ -n "$(meta "$TMP/re2.svg" target)" ] &&
	pass "meta: --subtitle replaces the line, metadata stays" || fail "meta: --subtitle"
"$UF" diff "$TMP/r.svg" "$TMP/re.svg" -o "$TMP/d.svg" 2>/dev/null
[ "$(meta "$TMP/d.svg" start)" = "$start" ] && pass "meta: diff keeps it" || fail "meta: diff keeps it"

# fold prints it as '#' lines; they read back without a warning, and the
# stacks are those of record's own --folded output
"$UF" fold "$TMP/r.svg" >"$TMP/f.folded" 2>"$TMP/f.err"
n=$(grep -c '^# [a-z-]*: ".*"$' "$TMP/f.folded")
[ "$n" -ge 12 ] && grep -q "^# build-id: \"${bid:-none}\"$" "$TMP/f.folded" &&
	pass "meta: fold prints $n '#' lines" || fail "meta: fold's '#' lines" "$n"
cmp -s <(grep -v '^#' "$TMP/f.folded" | sort) <(grep -v '^#' "$TMP/r.folded" | sort) &&
	pass "meta: fold's stacks equal record's --folded" || fail "meta: fold's stacks"
"$UF" render "$TMP/f.folded" -o "$TMP/f.svg" 2>"$TMP/f2.err"
! grep -q invalid "$TMP/f2.err" && [ "$(meta "$TMP/f.svg" start)" = "$start" ] &&
	"$UF" fold "$TMP/f.svg" | cmp -s - "$TMP/f.folded" &&
	pass "meta: the '#' lines are skipped as stacks and kept as metadata (round trip)" ||
	fail "meta: folded round trip" "$(cat "$TMP/f2.err")"
# flamegraph.pl's pattern (STACK COUNT) never matches a '#' line
! grep '^#' "$TMP/f.folded" | grep -qE '[[:space:]][0-9]+(\.[0-9]*)?$' &&
	pass "meta: no '#' line looks like a stack to flamegraph.pl" || fail "meta: '#' line looks like a stack"

# hostile metadata (an edited SVG): stays escaped text, over-long is cut, never a crash
sed 's|^subtitle: .*|subtitle: \&lt;script\&gt;alert(1)\&amp;|' "$TMP/r.svg" >"$TMP/evil.svg"
"$UF" render "$TMP/evil.svg" -o "$TMP/evil2.svg" 2>"$TMP/evil.err"; rc=$?
[ "$rc" -eq 0 ] && grep -q '<text id="subtitle"[^>]*>&lt;script&gt;alert(1)&amp;<' "$TMP/evil2.svg" &&
	! grep -q '<script>alert' "$TMP/evil2.svg" && pass "meta: edited metadata stays escaped text" ||
	fail "meta: edited metadata" "rc=$rc $(cat "$TMP/evil.err")"
