#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/perf.sh — `perf script` input: uniprof-flame fold against
# stackcollapse-perf.pl (and inferno-collapse-perf when installed) on the
# 94 MB capture of issue 12 (../shared/perf-ref/inputs/example-perf-stacks.txt.gz
# concatenated 30 times); the same capture gzip-compressed; a 5x smaller
# one to show that peak memory does not grow with the input; and the
# pprof / speedscope exports of the result.  Prints figures; never fails
# the build (exit 0 even when something is missing).
#
# Figures are best of N runs (wall, and CPU = user + system, which a busy
# shared machine disturbs far less), on a warm page cache.  The load
# average is printed with them.
#
# Environment: BENCH_BIN (default build/uniprof-flame), BENCH_RUNS (5),
# UF_STACKCOLLAPSE_PERF=PATH to stackcollapse-perf.pl (default: on PATH,
# or a FlameGraph checkout in ~/.cache/uniprof-flame/FlameGraph).
set -u
TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BENCH_BIN:-$TOP/build/uniprof-flame}
SHARED=${SHARED:-$TOP/../shared}
SRC=$SHARED/perf-ref/inputs/example-perf-stacks.txt.gz
OUT=$TOP/build/bench
RUNS=${BENCH_RUNS:-5}
mkdir -p "$OUT"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uf-bench-perf.XXXXXX") || exit 0
trap 'rm -rf "$tmp"' EXIT

if [ ! -f "$SRC" ]; then echo "perf bench: no $SRC (the perf-ref oracle); skipped"; exit 0; fi
if [ ! -x "$BIN" ]; then echo "perf bench: no $BIN (run make)"; exit 0; fi
if [ ! -x "$OUT/rusage" ] || [ "$OUT/rusage" -ot "$TOP/bench/rusage.c" ]; then
	${CC:-cc} -std=gnu11 -O2 -o "$OUT/rusage" "$TOP/bench/rusage.c" || { echo "perf bench: cannot build rusage"; exit 0; }
fi

# inputs, made once: 30x (94 MB), 6x, and 30x gzip-compressed
big=$OUT/perf-30x.txt small=$OUT/perf-6x.txt gz=$OUT/perf-30x.txt.gz
if [ ! -s "$big" ] || [ "$big" -ot "$SRC" ]; then
	for i in $(seq 30); do zcat "$SRC"; done >"$big"
	for i in $(seq 6); do zcat "$SRC"; done >"$small"
	gzip -c "$big" >"$gz"
fi
cat "$big" "$small" "$gz" >/dev/null # page cache

# best LABEL CMD...: best-of-RUNS wall and CPU seconds, peak RSS
best() {
	local label=$1 i bw=999 bc=999 rss=0 line
	shift
	for i in $(seq "$RUNS"); do
		"$OUT/rusage" "$tmp/rep" "$@" >/dev/null 2>"$tmp/err" || { echo "$label: cannot run"; return; }
		read -r w r s c <"$tmp/rep"
		if [ "$s" != 0 ]; then printf '%-44s FAILED (%s)\n' "$label" "$(head -c 120 "$tmp/err")"; return; fi
		bw=$(awk -v a="$bw" -v b="$w" 'BEGIN { print (b < a ? b : a) }')
		bc=$(awk -v a="$bc" -v b="$c" 'BEGIN { print (b < a ? b : a) }')
		[ "$r" -gt "$rss" ] && rss=$r
	done
	printf '%-44s %8.3f s wall %8.3f s cpu %8.1f MB peak\n' "$label" "$bw" "$bc" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
}

echo "perf script input: $(du -m "$big" | cut -f1) MB ($(grep -c '^$' "$big") samples), best of $RUNS; load $(cut -d' ' -f1-3 /proc/loadavg), $(nproc) cores"
best "uniprof-flame fold (94 MB, 2 threads)" "$BIN" fold "$big" -o "$tmp/a.folded"
best "uniprof-flame fold < pipe (one thread)" sh -c "cat '$big' | '$BIN' fold -o '$tmp/b.folded'"
best "uniprof-flame fold (19 MB: memory vs size)" "$BIN" fold "$small" -o "$tmp/c.folded"
best "uniprof-flame fold (94 MB gzip: $(du -m "$gz" | cut -f1) MB)" "$BIN" fold "$gz" -o "$tmp/d.folded"
best "uniprof-flame render (94 MB -> SVG)" "$BIN" render "$big" -o "$tmp/e.svg"
best "uniprof-flame fold -> pprof (.pb.gz)" "$BIN" fold "$big" -o "$tmp/f.pb.gz"
best "uniprof-flame fold -> speedscope" "$BIN" fold "$big" -o "$tmp/g.speedscope.json"
cmp -s "$tmp/a.folded" "$tmp/b.folded" && cmp -s "$tmp/a.folded" "$tmp/d.folded" ||
	echo "perf bench: WARNING: split, streamed and gzip results differ"

scp=${UF_STACKCOLLAPSE_PERF:-}
[ -z "$scp" ] && scp=$(command -v stackcollapse-perf.pl 2>/dev/null)
[ -z "$scp" ] && [ -f "$HOME/.cache/uniprof-flame/FlameGraph/stackcollapse-perf.pl" ] &&
	scp=$HOME/.cache/uniprof-flame/FlameGraph/stackcollapse-perf.pl
if [ -n "$scp" ] && command -v perl >/dev/null; then
	RUNS=1 best "stackcollapse-perf.pl (94 MB, 1 run)" perl "$scp" "$big"
	perl "$scp" "$big" 2>/dev/null | LC_ALL=C sort >"$tmp/pl.folded"
	LC_ALL=C sort "$tmp/a.folded" | cmp -s - "$tmp/pl.folded" && echo "  same folded lines as stackcollapse-perf.pl" ||
		echo "  WARNING: output differs from stackcollapse-perf.pl"
else
	echo "stackcollapse-perf.pl: not found (UF_STACKCOLLAPSE_PERF=PATH; issue 12 quotes about 4 s)"
fi
if command -v inferno-collapse-perf >/dev/null; then
	best "inferno-collapse-perf (94 MB)" inferno-collapse-perf "$big"
else
	echo "inferno-collapse-perf: not installed (issue 12 quotes 0.2-0.3 s with 2 threads)"
fi
echo "target (issue 12): the 94 MB capture in <= 0.1 s on both cores, memory independent of input size"
exit 0
