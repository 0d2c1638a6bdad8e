#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/run.sh — `make bench`: wall time and peak RSS of `render` and `diff`
# on synthetic and real folded inputs, printed as one table beside the
# targets from issues 2 and 5.
#
# Trade-off: medians of a few runs on a warm page cache, so the figures show
# the program, not the disk; a cold-cache first run can be slower.
# Invariants:
#  1. Never fails the build: exit status is 0 even when a target is missed
#     or the binary fails (the table says MISSED / FAILED instead).
#  2. Inputs are generated once by bench/gen-folded.c (fixed seeds) into
#     build/bench/ and reused while build/bench/<input>.stamp matches the
#     generator's source and arguments (about 10 s and 800 MB for 1M).
#  3. Outputs go to a private temporary directory that is always removed.
#
# Environment (all optional):
#   BENCH_BIN=PATH      binary to measure (default build/uniprof-flame)
#   BENCH_RUNS=N        runs per small input (default 20; 100k: 5; 1M: 3)
#   BENCH_QUICK=1       skip the 1M-stack input and its diff
#   BENCH_PROFILE=1     afterwards, `perf record` one 1M render; top 10 symbols
#   BENCH_PROFILE=callgrind   instead, callgrind on one 100k render: instruction
#                       counts, which a busy machine does not disturb
#   FLAMEGRAPH_PL=PATH  flamegraph.pl to compare with (default: the first of
#                       ~/.cache/uniprof-flame/FlameGraph/flamegraph.pl,
#                       ~/.cache/uf-flamegraph/flamegraph.pl); one run per input
#   BENCH_PERL_MAX=BYTES  run flamegraph.pl only on inputs up to this size
#                       (default 50000000: it needs ~0.5 s/MB and ~25x the input in RAM)
#   INFERNO=PATH        inferno-flamegraph to compare with (default: from PATH)
#   BENCH_OTHERS=0      leave out the other bench/*.sh scripts (QEMU, Xen, perf)
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=${BENCH_BIN:-$TOP/build/uniprof-flame}
OUT=$TOP/build/bench
SHARED=${SHARED:-$TOP/../shared}
CC=${CC:-cc}
RUNS=${BENCH_RUNS:-20}
EXAMPLE=$SHARED/flamegraph-ref/inputs/example-perf.folded
GEN_VERSION=1
SHAPES_VERSION=1
SEED_100K=3 SEED_1M=2 SEED_TREE=7 N_TREE=2000

mkdir -p "$OUT/logs"
BUSY=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/uf-bench.XXXXXX") || exit 0
trap 'rm -rf "$TMP"' EXIT

note() { echo "bench: $*" >&2; }

# ---- tools ---------------------------------------------------------------

build_tool() { # NAME: build/bench/NAME from bench/NAME.c when out of date
	local src=$TOP/bench/$1.c bin=$OUT/$1
	[ "$bin" -nt "$src" ] && return 0
	$CC -std=gnu11 -O2 -Wall -Wextra -Werror -o "$bin" "$src" -lm
}

# ---- inputs --------------------------------------------------------------

# gen_group NAME OUTPUT... -- GEN-ARGS...: runs gen-folded (GEN=gen-shapes:
# that one) unless NAME.stamp matches the generator's source and arguments
# and every OUTPUT exists.
gen_group() {
	local name=$1 stamp f ok=1 outs=() gen=${GEN:-gen-folded}
	shift
	while [ "$1" != -- ]; do outs+=("$1"); shift; done
	shift
	stamp="v$GEN_VERSION.$SHAPES_VERSION $(sha256sum "$TOP/bench/$gen.c" | cut -c1-16) $*"
	for f in "${outs[@]}"; do [ -s "$OUT/$f" ] || ok=0; done
	[ $ok = 1 ] && [ "$(cat "$OUT/$name.stamp" 2>/dev/null)" = "$stamp" ] && return 0
	rm -f "$OUT/$name.stamp"
	note "generating $name into $OUT (once)"
	(cd "$OUT" && "./$gen" "$@" >&2) || return 1
	echo "$stamp" >"$OUT/$name.stamp"
}

# The shapes of issue 11 (bench/gen-shapes.c), fixed seeds.
gen_shapes() {
	GEN=gen-shapes gen_group little-100k little-100k.folded -- little 100000 11 little-100k.folded &&
	GEN=gen-shapes gen_group tree-64k tree-64k.folded -- tree 64000 2 tree-64k.folded &&
	GEN=gen-shapes gen_group tree-64k-b tree-64k-b.folded -- tree 64000 3 tree-64k-b.folded &&
	GEN=gen-shapes gen_group tree-100k tree-100k.folded -- tree 100000 2 tree-100k.folded &&
	GEN=gen-shapes gen_group names-1m names-1m.folded -- names 1000000 17 names-1m.folded || return 1
	[ "${BENCH_QUICK:-0}" = 1 ] && return 0
	GEN=gen-shapes gen_group deep-10k deep-10k.folded -- deep 10000 13 deep-10k.folded &&
	GEN=gen-shapes gen_group little-1m little-1m.folded -- little 1000000 12 little-1m.folded
}

gen_inputs() {
	gen_group tree-2k tree-2k.folded -- tree $N_TREE $SEED_TREE tree-2k.folded || return 1
	gen_group flat-100k flat-100k.folded flat-100k-b.folded -- \
		flat 100000 $SEED_100K flat-100k.folded flat-100k-b.folded || return 1
	[ "${BENCH_QUICK:-0}" = 1 ] && return 0
	gen_group flat-1m flat-1m.folded flat-1m-b.folded -- \
		flat 1000000 $SEED_1M flat-1m.folded flat-1m-b.folded
}

# ---- measuring -----------------------------------------------------------

# median FILE: median of the numbers in FILE, one a line ("nan" if none)
median() {
	sort -g "$1" | awk '{v[NR] = $1} END {
		if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2];
		else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# measure LABEL RUNS CMD...: runs CMD RUNS times under rusage; sets M_WALL
# and M_CPU (medians, s), M_MIN (fastest wall, s), M_RSS (highest peak RSS, MiB), M_STATUS (first
# non-zero exit status or 0), M_OUT (bytes of $TMP/out.svg, or out.folded, after the last run).
measure() {
	local label=$1 runs=$2 i rep=$TMP/rusage wall rss status cpu
	shift 2
	: >"$TMP/walls"
	: >"$TMP/cpus"
	M_RSS=0 M_STATUS=0
	for ((i = 0; i < runs; i++)); do
		rm -f "$TMP/out.svg" "$TMP/out.folded"
		if ! "$OUT/rusage" "$rep" "$@" >"$OUT/logs/$label.out" 2>"$OUT/logs/$label.err"; then
			M_STATUS=127
			break
		fi
		read -r wall rss status cpu <"$rep"
		echo "$wall" >>"$TMP/walls"
		echo "$cpu" >>"$TMP/cpus"
		[ "$rss" -gt "$M_RSS" ] && M_RSS=$rss
		if [ "$status" != 0 ]; then M_STATUS=$status; break; fi
	done
	M_WALL=$(median "$TMP/walls")
	M_MIN=$(sort -g "$TMP/walls" | head -n 1)
	M_CPU=$(median "$TMP/cpus")
	M_RSS=$(awk -v k="$M_RSS" 'BEGIN{printf "%.1f", k/1024}')
	M_OUT=$(stat -c %s "$TMP/out.svg" 2>/dev/null || stat -c %s "$TMP/out.folded" 2>/dev/null || echo 0)
}

human() { awk -v b="$1" 'BEGIN{ if (b == 0) print "-"; else if (b < 1e6) printf "%.0f KB", b/1e3; else printf "%.1f MB", b/1e6 }'; }

# verdict WALL MAX_WALL RSS MAX_RSS CPU: "ok", or MISSED with what (empty
# max = no target); on a busy machine, says when cpu time alone would pass.
verdict() {
	awk -v w="$1" -v mw="$2" -v r="$3" -v mr="$4" -v c="$5" -v busy="$BUSY" 'BEGIN{
		m = ""
		if (mw != "" && w + 0 > mw + 0) m = m " time"
		if (mr != "" && r + 0 > mr + 0) m = m " rss"
		if (mw == "" && mr == "") { print "-"; exit }
		if (m == "") { print "ok"; exit }
		extra = (busy && m ~ /time/ && c + 0 <= mw + 0) ? "; cpu s within, machine busy" : ""
		print "MISSED (" substr(m, 2) extra ")"
	}'
}

# row LABEL INPUT_BYTES RUNS TARGET_TEXT MAX_WALL MAX_RSS CMD...
row() {
	local label=$1 bytes=$2 runs=$3 target=$4 mw=$5 mr=$6 v
	shift 6
	measure "$label" "$runs" "$@"
	if [ "$M_STATUS" != 0 ]; then
		v="FAILED (exit $M_STATUS): $(head -c 120 "$OUT/logs/$label.err" | head -n 1)"
	else
		v=$(verdict "$M_WALL" "$mw" "$M_RSS" "$mr" "$M_CPU")
	fi
	printf '%-14s %10s %4s %9.4f %9.4f %9.4f %9s %10s  %-26s %s\n' "$label" "$(human "$bytes")" \
		"$runs" "$M_WALL" "$M_MIN" "$M_CPU" "$M_RSS" "$(human "$M_OUT")" "$target" "$v"
}

size_of() { stat -c %s "$1" 2>/dev/null || echo 0; }

warm() { cat "$@" >/dev/null 2>&1; } # page cache, so runs time the program

# load_note: warn when other work competes for the CPUs (figures get
# noisy); sets BUSY=1 then.
load_note() {
	local load
	read -r load _ </proc/loadavg
	BUSY=$(awk -v l="$load" -v n="$(nproc)" 'BEGIN { print (l + 0 > n / 2) ? 1 : 0 }')
	[ "$BUSY" = 1 ] &&
		echo "note: load average $load on $(nproc) cores: wall times are inflated; cpu s and min s are steadier"
}

has_diff() { "$BIN" --help 2>/dev/null | grep -qE '^[[:space:]]+diff[[:space:]]'; }

# ---- main ----------------------------------------------------------------

main() {
	local r100 r1m ex=$EXAMPLE s
	if [ ! -x "$BIN" ]; then
		note "no binary at $BIN; run 'make' first"
		return 0
	fi
	if ! build_tool gen-folded || ! build_tool rusage || ! build_tool gen-shapes; then
		note "cannot build bench tools"
		return 0
	fi
	gen_inputs || { note "input generation failed"; return 0; }
	gen_shapes || { note "shape generation failed"; return 0; }
	echo "uniprof-flame bench: $BIN ($(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?'))," \
		"$(nproc) cores, $(uname -r), $(date -u '+%Y-%m-%d %H:%M UTC')"
	echo "wall, cpu (user+sys) = medians of RUNS runs, spawn+exec included; min = fastest wall;" \
		"RSS = highest peak of those runs"
	load_note
	printf '%-14s %10s %4s %9s %9s %9s %9s %10s  %-26s %s\n' input size runs "wall s" "min s" \
		"cpu s" "RSS MiB" output target verdict
	# the floor under every row: exec, dynamic loading, --help, exit
	row startup 0 "$RUNS" "(floor: --help)" "" "" "$BIN" --help
	if [ -s "$ex" ]; then
		warm "$ex"
		"$BIN" render "$ex" -o "$TMP/out.svg" >/dev/null 2>&1 # warm-up, not counted
		row example-perf "$(size_of "$ex")" "$RUNS" "<= 0.004 s" 0.004 "" \
			"$BIN" render "$ex" -o "$TMP/out.svg"
	else
		echo "example-perf   (skipped: $ex not found)"
	fi
	s=$OUT/tree-2k.folded
	warm "$s"
	row tree-2k "$(size_of "$s")" "$RUNS" "(none)" "" "" "$BIN" render "$s" -o "$TMP/out.svg"
	s=$OUT/flat-100k.folded
	warm "$s"
	row flat-100k "$(size_of "$s")" 5 "<= 0.17 s, <= 160 MiB" 0.17 160 \
		"$BIN" render "$s" -o "$TMP/out.svg"
	r100=$M_WALL
	if [ "${BENCH_QUICK:-0}" != 1 ]; then
		s=$OUT/flat-1m.folded
		warm "$s"
		row flat-1m "$(size_of "$s")" 3 "<= 1.8 s, <= 768 MiB" 1.8 768 \
			"$BIN" render "$s" -o "$TMP/out.svg"
		r1m=$M_WALL
	fi
	bench_diff "$r100" "${r1m:-}"
	bench_shapes
	fold_phases
	thread_start
	[ "${BENCH_OTHERS:-1}" = 0 ] || other_benches
	case ${BENCH_PROFILE:-0} in
	1 | perf) profile_1m ;;
	callgrind) profile_callgrind ;;
	esac
	return 0
}

# ---- issue 11: every input shape, beside flamegraph.pl and inferno -------

find_flamegraph_pl() {
	local f
	for f in "${FLAMEGRAPH_PL:-}" "$HOME/.cache/uniprof-flame/FlameGraph/flamegraph.pl" \
		"$HOME/.cache/uf-flamegraph/flamegraph.pl"; do
		[ -n "$f" ] && [ -f "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# other_tool NAME INPUT CMD...: one run of another renderer (stdout to a
# file); prints "Nx / Mx" (its wall / ours, its RSS / ours) or why not.
other_tool() {
	local name=$1 input=$2 w r st c
	shift 2
	if ! "$OUT/rusage" "$TMP/rep-$name" sh -c '"$@" >"'"$TMP"'/other.svg" 2>/dev/null' sh "$@"; then
		echo "failed"
		return
	fi
	read -r w r st c <"$TMP/rep-$name"
	rm -f "$TMP/other.svg"
	if [ "$st" != 0 ]; then echo "failed (exit $st)"; return; fi
	awk -v w="$w" -v r="$r" -v mw="$M_WALL" -v mr="$M_RSS" \
		'BEGIN { printf "%.1fx time, %.2fx rss (%.2f s, %.0f MiB)", w / mw, r / 1024 / mr, w, r / 1024 }'
}

# shape_row LABEL INPUT RUNS TARGET MAX_WALL MAX_RSS SUBCMD [ARGS]: our row,
# then flamegraph.pl's and inferno's factors for render rows.
shape_row() {
	local label=$1 input=$2 runs=$3 target=$4 mw=$5 mr=$6 sub=$7 pl inf size out
	shift 7
	[ -s "$input" ] || { echo "$label (skipped: $input not found)"; return; }
	size=$(size_of "$input")
	warm "$input" "$@"
	# fold writes what -o's extension names: .folded for the folded text
	[ "$sub" = fold ] && out=$TMP/out.folded || out=$TMP/out.svg
	row "$label" "$size" "$runs" "$target" "$mw" "$mr" "$BIN" "$sub" "$input" "$@" -o "$out"
	[ "$sub" = render ] || return 0
	if ! pl=$(find_flamegraph_pl); then
		SHAPE_PL="not present"
	elif [ "$size" -gt "${BENCH_PERL_MAX:-50000000}" ]; then
		SHAPE_PL="skipped (input over BENCH_PERL_MAX)"
	else
		SHAPE_PL=$(other_tool pl "$input" perl "$pl" "$input")
	fi
	inf=${INFERNO:-$(command -v inferno-flamegraph 2>/dev/null)}
	if [ -z "$inf" ]; then
		SHAPE_INF="not installed"
	else
		SHAPE_INF=$(other_tool inferno "$input" "$inf" "$input")
	fi
	printf '  %-12s vs flamegraph.pl: %s; vs inferno: %s\n' "" "$SHAPE_PL" "$SHAPE_INF"
}

bench_shapes() {
	local ex=$EXAMPLE t64
	echo
	echo "issue 11 shapes (bench/gen-shapes.c): render, fold and diff; under each render row, the other"
	echo "renderers' wall time and peak RSS as a multiple of ours (one run each; >1x = we are faster/smaller)"
	printf '%-14s %10s %4s %9s %9s %9s %9s %10s  %-26s %s\n' input size runs "wall s" "min s" \
		"cpu s" "RSS MiB" output target verdict
	shape_row example-perf "$ex" "$RUNS" "<= 0.003 s" 0.003 "" render
	shape_row tree-64k "$OUT/tree-64k.folded" 10 "<= 0.07 s" 0.07 "" render
	t64=$M_WALL
	shape_row fold-tree-64k "$OUT/tree-64k.folded" 10 "<= render (same speed)" "$t64" "" fold
	shape_row diff-tree-64k "$OUT/tree-64k-b.folded" 10 "<= render tree-64k" "$t64" "" diff \
		"$OUT/tree-64k.folded"
	shape_row tree-100k "$OUT/tree-100k.folded" 5 "(none)" "" "" render
	shape_row little-100k "$OUT/little-100k.folded" 5 "<= 0.17 s" 0.17 "" render
	shape_row fold-little-100k "$OUT/little-100k.folded" 5 "(same speed)" "" "" fold
	shape_row names-1m "$OUT/names-1m.folded" 5 "(none)" "" "" render
	[ "${BENCH_QUICK:-0}" = 1 ] && return 0
	shape_row deep-10k "$OUT/deep-10k.folded" 3 "(none)" "" "" render
	shape_row little-1m "$OUT/little-1m.folded" 3 "<= 1.8 s, <= 768 MiB" 1.8 768 render
	shape_row fold-little-1m "$OUT/little-1m.folded" 3 "(same speed)" "" "" fold
}

# other_benches: every other bench/*.sh (other areas' figures, e.g. symtab);
# each prints its own figures and never fails the build.
other_benches() {
	local f
	for f in "$TOP"/bench/*.sh; do
		if [ ! -f "$f" ] || [ "$f" = "$TOP/bench/run.sh" ]; then continue; fi
		echo
		echo "== bench/$(basename "$f") =="
		bash "$f" || note "bench/$(basename "$f") exited with status $?"
	done
}

# fold_phases: one run of bench/fold-phases per input, linked against the
# release objects of fold/ and util/ that `make` just built.
fold_phases() {
	local f libs
	libs="$(pkg-config --libs libxml-2.0 libprotobuf-c zlib 2>/dev/null) -lpthread"
	# shellcheck disable=SC2086 # word splitting of the object lists is intended
	if ! $CC -std=gnu11 -O2 -I"$TOP" -I"$TOP/build/gen" -D_GNU_SOURCE -o "$OUT/fold-phases" \
		"$TOP/bench/fold-phases.c" "$TOP"/build/rel/fold/*/*.o "$TOP"/build/rel/util/*.o \
		"$TOP"/build/rel/build/gen/*.o $libs -lm 2>"$OUT/logs/fold-phases.build"; then
		note "fold phases skipped: bench/fold-phases.c does not build against fold.h (see $OUT/logs/fold-phases.build)"
		return 0
	fi
	echo
	echo "fold/ phases (bench/fold-phases, one run each): read = parse + trie, finish = totals + sibling order,"
	echo "write = sorted folded text (the fold command), embed = the SVG's trie block without budget"
	for f in "$EXAMPLE" "$OUT/tree-2k.folded" "$OUT/flat-100k.folded" "$OUT/flat-1m.folded" \
		"$OUT/tree-64k.folded" "$OUT/little-100k.folded" "$OUT/little-1m.folded"; do
		[ -s "$f" ] || continue
		[ "${BENCH_QUICK:-0}" = 1 ] && case $f in *-1m.folded) continue ;; esac
		printf '%-14s %s\n' "$(basename "$f" .folded)" \
			"$("$OUT/fold-phases" "$f" 2>&1 | head -n 1)"
	done
}

# thread_start: a fresh process's second thread, util/thread.c's start
# beside a plain pthread_create (bench/thread-start.c, util/thread.h).
thread_start() {
	if ! $CC -std=gnu11 -O2 -Wall -Wextra -Werror -I"$TOP" -D_GNU_SOURCE -o "$OUT/thread-start" \
		"$TOP/bench/thread-start.c" "$TOP/util/thread.c" -lpthread 2>"$OUT/logs/thread-start.build"; then
		note "thread start skipped: bench/thread-start.c does not build (see $OUT/logs/thread-start.build)"
		return 0
	fi
	echo
	"$OUT/thread-start" "${BENCH_THREAD_RUNS:-20}" || note "bench/thread-start exited with status $?"
}

# bench_diff RENDER_100K_WALL RENDER_1M_WALL: diff rows, target = that render time
bench_diff() {
	local n a b t sum
	if ! has_diff; then
		echo "diff           (skipped: $BIN has no 'diff' command yet)"
		return 0
	fi
	for n in 100k 1m; do
		[ "$n" = 1m ] && [ "${BENCH_QUICK:-0}" = 1 ] && continue
		a=$OUT/flat-$n.folded b=$OUT/flat-$n-b.folded
		t=$1
		[ "$n" = 1m ] && t=$2
		sum=$(($(size_of "$a") + $(size_of "$b")))
		warm "$a" "$b"
		row "diff-$n" "$sum" "$([ $n = 1m ] && echo 3 || echo 5)" \
			"$(printf '<= render %s (%.3f s)' "$n" "$t")" "$t" "" \
			"$BIN" diff "$a" "$b" -o "$TMP/out.svg"
	done
}

# profile_1m: where render time goes on the 1M input (perf, if permitted)
profile_1m() {
	local s=$OUT/flat-1m.folded data=$TMP/perf.data
	[ -s "$s" ] || s=$OUT/flat-100k.folded
	if ! command -v perf >/dev/null; then
		note "profile: perf not installed"
		return 0
	fi
	echo
	echo "profile: perf record of '$(basename "$BIN") render $(basename "$s")'; top 10 by self time"
	if ! perf record -q -o "$data" "$BIN" render "$s" -o "$TMP/out.svg" >/dev/null 2>"$OUT/logs/perf.err"; then
		note "profile: perf record failed: $(head -n 1 "$OUT/logs/perf.err")"
		return 0
	fi
	perf report -i "$data" --sort symbol --stdio -q 2>/dev/null | sed "s/ *- *- *\$//" |
		grep -v '^$' | head -n 10
}

# cg_tidy: "COUNT (PCT%) FILE:FUNCTION [OBJECT]" -> "COUNT PCT% BASENAME:FUNCTION", once each
cg_tidy() {
	awk '$1 ~ /^[0-9,]+$/ {
		line = $0; sub(/ *\[[^]]*\] *$/, "", line)
		pct = line; sub(/^[^(]*\( */, "", pct); sub(/\).*$/, "", pct)
		name = line; sub(/^[^)]*\) +/, "", name); sub(/^.*\//, "", name)
		sub(/^\.\//, "", name)
		if (!seen[name]++) printf "%15s %7s  %s\n", $1, pct, name }'
}

# profile_callgrind: instruction counts of one 100k render, self and inclusive
profile_callgrind() {
	local s=$OUT/flat-100k.folded cg=$TMP/callgrind.out
	if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
		note "profile: valgrind not installed"
		return 0
	fi
	echo
	echo "profile: callgrind of '$(basename "$BIN") render $(basename "$s")' (about a minute)"
	if ! valgrind --tool=callgrind --callgrind-out-file="$cg" "$BIN" render "$s" -o "$TMP/out.svg" \
		>/dev/null 2>"$OUT/logs/callgrind.err"; then
		note "profile: callgrind failed: $(tail -n 1 "$OUT/logs/callgrind.err")"
		return 0
	fi
	echo "top 10 functions by own instructions:"
	callgrind_annotate "$cg" 2>/dev/null | sed -n '/file:function/,$p' | sed -n '3,$p' |
		cg_tidy | head -n 10
	echo "top 10 of the program's own functions by inclusive instructions:"
	callgrind_annotate --inclusive=yes "$cg" 2>/dev/null | grep -F "$TOP/" | grep -v 'Profiled target' |
		cg_tidy | grep -v -e ':main$' -e 'below main' | head -n 10
}

# Sourced by bench/vs-inferno.sh for its inputs and tools: no run then.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	main
	exit 0
fi
