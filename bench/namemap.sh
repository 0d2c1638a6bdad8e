#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/namemap.sh — `render --cp` with many new names (issue 20 item 6):
# wall and cpu time of render with and without --cp on 100k and 200k
# distinct names, every frame drawn (--minwidth 0), so the palette gains
# one entry per name.  --cp must cost about as much per name at 200k as
# at 100k (the old unsorted tail made it quadratic: 2.7 s / 13.5 s).
#
# Invariants: never fails the build (exit 0 always); inputs generated
# here (names f0..fN-1, one sample each), outputs in a private temporary
# directory that is removed.  Best of BENCH_RUNS (default 3) runs.
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BENCH_BIN:-$TOP/build/uniprof-flame}
RUNS=${BENCH_RUNS:-3}
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uf-bench-nm.XXXXXX") || exit 0
trap 'rm -rf "$TMP"' EXIT
[ -x "$BIN" ] || { echo "namemap: no $BIN (make first)"; exit 0; }

# best (lowest) wall and its cpu seconds of RUNS runs of "$@"
best() {
	local b="" bc="" i w c
	for i in $(seq "$RUNS"); do
		rm -f "$TMP/p.map"
		/usr/bin/time -o "$TMP/t" -f '%e %U %S' "$@" > /dev/null 2>&1 || { echo "FAILED"; return; }
		read -r w u s < "$TMP/t"
		c=$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')
		if [ -z "$b" ] || awk -v a="$w" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$w bc=$c; fi
	done
	echo "$b s (cpu $bc s)"
}

echo "render --minwidth 0, N distinct names, best of $RUNS; load: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-8s %-24s %-24s\n' names "without --cp" "with --cp (new palette)"
for n in 100000 200000; do
	awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) printf "f%d 1\n", i }' > "$TMP/in.folded"
	a=$(best "$BIN" render --minwidth 0 "$TMP/in.folded" -o "$TMP/out.svg")
	b=$(best "$BIN" render --minwidth 0 --cp="$TMP/p.map" "$TMP/in.folded" -o "$TMP/out.svg")
	printf '%-8s %-24s %-24s\n' "$n" "$a" "$b"
done
exit 0
