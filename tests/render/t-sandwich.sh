#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-sandwich.sh — `fold/render --callers NAME` and `--callees
# NAME` (issue 33) against an independent oracle: a few lines of Python that
# cut each folded line at NAME's first (outermost) frame, with no trie.  On
# FlameGraph's real perf capture (../shared) for functions called from many
# places, and on a recursive profile made here; then the SVG's widths, the
# exit codes and messages a user sees.
. "$(dirname "$0")/../lib.sh"
command -v python3 >/dev/null || { skip sandwich "python3 not installed"; exit 0; }
export UF_TOP

# oracle IN NAME callers|callees: sorted folded text, each line cut at NAME's
# outermost frame (NAME or NAME_[x]), equal stacks summed
oracle() {
	python3 - "$@" <<'EOF'
import re, sys
path, name, half = sys.argv[1:4]
pat = re.compile(re.escape(name) + r"(_\[.\])?$")
acc = {}
for line in open(path, encoding="utf-8", errors="surrogateescape"):
    line = line.rstrip("\n")
    m = re.match(r"^(.*)\s+(\d+(?:\.\d*)?)$", line)
    if not m:
        continue
    frames = [f for f in m.group(1).split(";")]
    while frames and frames[-1] == "":
        frames.pop()
    hit = next((i for i, f in enumerate(frames) if pat.match(f)), None)
    if hit is None:
        continue
    key = [name] + (frames[hit + 1:] if half == "callees" else frames[:hit][::-1])
    k = ";".join(key)
    acc[k] = acc.get(k, 0) + float(m.group(2))
for k in sorted(acc, key=lambda s: s.encode("utf-8", "surrogateescape")):
    v = acc[k]
    print(f"{k} {int(v) if v == int(v) else v}")
EOF
}

# same IN NAME HALF LABEL: fold's half equals the oracle's, line for line
same() {
	local in=$1 name=$2 half=$3 label=$4
	if ! "$UF" fold "--$half" "$name" "$in" -o "$TMP/got" 2>"$TMP/err"; then
		fail "$label" "exit $?: $(head -n 1 "$TMP/err")"
		return
	fi
	oracle "$in" "$name" "$half" >"$TMP/want"
	if [ ! -s "$TMP/want" ]; then
		fail "$label" "the oracle found no '$name'"
	elif cmp -s "$TMP/got" "$TMP/want"; then
		pass "$label ($(wc -l <"$TMP/want") stacks)"
	else
		fail "$label" "$(diff "$TMP/want" "$TMP/got" | head -n 4 | tr '\n' '|')"
	fi
}

# A recursive profile: f calls g calls f; h calls f from two places.
cat >"$TMP/rec.folded" <<'EOF'
main;f;g;f;leaf 10
main;f;g 3
main;h;f;g;f 4
main;h;x;f 2
other;f_[k] 5
main;y 7
EOF
same "$TMP/rec.folded" f callers "callers of a recursive function equal the oracle's"
same "$TMP/rec.folded" f callees "callees of a recursive function equal the oracle's"

# f's width in the callees SVG is every sample with f on the stack, once:
# 10 + 3 + 4 + 2 + 5 = 24 of the profile's 31.
"$UF" render --callees f "$TMP/rec.folded" -o "$TMP/f.svg" 2>"$TMP/err"
got=$(python3 - "$TMP/f.svg" <<'EOF'
import os, sys
sys.path.insert(0, os.environ["UF_TOP"] + "/tests/render")
from compat import our_frames
print(";".join(sorted(f"{f[5]}={f[3]}" for f in our_frames(sys.argv[1]) if f[5] in ("f", "all"))))
EOF
)
case "$got" in
*"f=24"*) pass "render --callees: the function's frame is 24 samples, recursion counted once" ;;
*) fail "render --callees: the function's frame is 24 samples, recursion counted once" "frames: $got" ;;
esac

# A differential keeps both counts.
printf 'a;f 3 5\nb;f 2 0\nc 1 1\n' >"$TMP/d.folded"
"$UF" fold --callers f "$TMP/d.folded" -o "$TMP/d.out" 2>"$TMP/err"
[ "$(cat "$TMP/d.out")" = "$(printf 'f;a 3 5\nf;b 2 0')" ] &&
	pass "differential: callers keep both counts" ||
	fail "differential: callers keep both counts" "$(tr '\n' '|' <"$TMP/d.out")"

# Errors: one line, exit 2 for a name the profile lacks, 1 for both halves.
"$UF" fold --callers nosuch "$TMP/rec.folded" -o "$TMP/n.out" 2>"$TMP/err"
rc=$?
[ $rc = 2 ] && grep -q "no frame is named 'nosuch'" "$TMP/err" && [ ! -e "$TMP/n.out" ] &&
	pass "an unknown name: exit 2, one line, no output" ||
	fail "an unknown name: exit 2, one line, no output" "rc $rc: $(head -n 1 "$TMP/err")"
"$UF" render --callers f --callees f "$TMP/rec.folded" -o "$TMP/n.svg" 2>"$TMP/err"
rc=$?
[ $rc = 1 ] && grep -q "one half at a time" "$TMP/err" &&
	pass "both halves at once: usage error" || fail "both halves at once: usage error" "rc $rc"

# FlameGraph's real perf capture: libc and kernel functions called from
# many places.
ex=$SHARED/flamegraph-ref/inputs/example-perf.folded
if [ ! -s "$ex" ]; then
	skip "sandwich on the real perf capture" "$ex not found (../shared is the project's oracle folder)"
	exit 0
fi
for fn in Interpreter "[libpthread-2.19.so]" system_call_fastpath sys_write tcp_sendmsg _raw_spin_lock; do
	grep -qF ";$fn;" "$ex" || grep -qF ";$fn " "$ex" || continue
	same "$ex" "$fn" callers "real capture: callers of $fn equal the oracle's"
	same "$ex" "$fn" callees "real capture: callees of $fn equal the oracle's"
done
