#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/browser/run.sh — `make bench-browser`: what our SVG costs to open and
# to use in Chromium and Firefox ESR, beside flamegraph.pl's SVG of the
# same input (issue 17).
#
# Inputs: the real 646 KB perf capture (../shared/flamegraph-ref), tree100k
# (bench/browser/gen-tree.js 100000 7: 100k stacks from a call tree), s100k (the
# bench's flat-100k: 100k little-sharing stacks, seed 3) and tree100k at
# --minwidth 0.01 ("fine": 55k frames here; the issue's own generator drew 25k)
# and at --minwidth 0.02 ("fine28k": 28k frames, the size of the issue's).  Each is drawn by build/uniprof-flame
# (default options) and by flamegraph.pl when present ($FLAMEGRAPH_PL,
# ~/.cache/uf-flamegraph/flamegraph.pl or on PATH; never part of this repo),
# then bench/browser/measure.js times ready / hover / search / clear / zoom /
# reset over fresh headless browsers (see its header for the timing rules).
#
# Trade-off: a fresh browser per run (minutes in all) rather than reloads in
# one, so no run profits from another's caches, as a person opening an
# attachment would not.
# Invariants: never fails the build (exit 0); outputs in a private temporary
# directory, removed at exit; generated inputs cached in build/bench/.
#
# Environment: BENCH_RUNS (Chromium runs, default 5), BENCH_FF_RUNS (Firefox,
# default 3), BENCH_BROWSERS ("chrome firefox"), BENCH_INPUTS (labels to run:
# "ex tree100k s100k fine fine28k ex-t tree100k-t"; the -t ones are the same stacks as
# a perf script with timestamps, so our SVG has the time view, beside
# flamegraph.pl's of the folded stacks), BENCH_BIN (binary), BENCH_KEEP=DIR (keep the SVGs).
set -u

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BIN=${BENCH_BIN:-$TOP/build/uniprof-flame}
OUT=$TOP/build/bench
SHARED=${SHARED:-$TOP/../shared}
EXAMPLE=$SHARED/flamegraph-ref/inputs/example-perf.folded
CC=${CC:-cc}
here=$TOP/bench/browser
note() { echo "bench-browser: $*" >&2; }

TMP=$(mktemp -d "${TMPDIR:-/tmp}/uf-bench-browser.XXXXXX") || exit 0
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$OUT"

find_fg() {
	local c
	for c in "${FLAMEGRAPH_PL:-}" "$HOME/.cache/uf-flamegraph/flamegraph.pl" "$(command -v flamegraph.pl 2>/dev/null)"; do
		[ -n "$c" ] && [ -f "$c" ] && { echo "$c"; return 0; }
	done
	return 1
}

# gen NAME ARGS...: build/bench/NAME.folded from gen-folded, once per source+args
gen() {
	local name=$1 stamp
	shift
	stamp="$(sha256sum "$TOP/bench/gen-folded.c" | cut -c1-16) $*"
	[ -s "$OUT/$name.folded" ] && [ "$(cat "$OUT/$name.bstamp" 2>/dev/null)" = "$stamp" ] && return 0
	note "generating $name (once)"
	if [ ! "$OUT/gen-folded" -nt "$TOP/bench/gen-folded.c" ]; then
		$CC -std=gnu11 -O2 -Wall -Wextra -Werror -o "$OUT/gen-folded" "$TOP/bench/gen-folded.c" -lm || return 1
	fi
	(cd "$OUT" && ./gen-folded "$@" >/dev/null) || return 1
	echo "$stamp" >"$OUT/$name.bstamp"
}

# timed FOLDED NAME: build/bench/NAME-timed.perf, FOLDED's stacks as a perf
# script with timestamps (gen-timed.py), made once and checked to fold back
# to FOLDED's stacks; prints its path ("" when it cannot be made)
timed() {
	local perf=$OUT/$2-timed.perf
	if [ ! -s "$perf" ] || [ "$perf" -ot "$1" ] || [ "$perf" -ot "$here/gen-timed.py" ]; then
		note "generating $2-timed.perf (once)"
		python3 "$here/gen-timed.py" "$1" "$perf.tmp" && mv "$perf.tmp" "$perf" || { rm -f "$perf.tmp"; return 0; }
		cmp -s <("$BIN" fold "$perf" | grep -v '^#' | sort) <(grep -v '^#' "$1" | sort) ||
			{ note "$2-timed.perf does not fold back to $1"; rm -f "$perf"; return 0; }
	fi
	echo "$perf"
}

main() {
	local fg files=() label in extra ours
	[ -x "$BIN" ] || { note "no binary at $BIN; run 'make' first"; return 0; }
	command -v node >/dev/null || { note "node not installed"; return 0; }
	if [ ! -d "$TOP/tests/browser/node_modules/puppeteer-core" ]; then
		(cd "$TOP/tests/browser" && npm ci --no-audit --no-fund --loglevel=error) >&2 ||
			{ note "npm ci failed in tests/browser"; return 0; }
	fi
	if [ ! -s "$OUT/tree100k.folded" ] || [ "$OUT/tree100k.folded" -ot "$here/gen-tree.js" ]; then
		node "$here/gen-tree.js" 100000 7 "$OUT/tree100k.folded" >&2 || { note "cannot generate tree100k"; return 0; }
	fi
	gen flat-100k flat 100000 3 flat-100k.folded flat-100k-b.folded || { note "cannot generate s100k"; return 0; }
	fg=$(find_fg) || fg=
	echo "uniprof-flame browser bench: $BIN ($(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg), $(date -u '+%Y-%m-%d %H:%M UTC')"
	[ -n "$fg" ] && echo "flamegraph.pl: $fg" || echo "flamegraph.pl: not present (set FLAMEGRAPH_PL)"
	for label in ${BENCH_INPUTS:-ex tree100k s100k fine fine28k ex-t tree100k-t}; do
		extra=() ours=
		case $label in
		ex) in=$EXAMPLE ;;
		tree100k) in=$OUT/tree100k.folded ;;
		s100k) in=$OUT/flat-100k.folded ;;
		fine) in=$OUT/tree100k.folded extra=(--minwidth 0.01) ;;
		fine28k) in=$OUT/tree100k.folded extra=(--minwidth 0.02) ;;
		ex-t) in=$EXAMPLE ours=$(timed "$EXAMPLE" ex) ;;
		tree100k-t) in=$OUT/tree100k.folded ours=$(timed "$OUT/tree100k.folded" tree100k) ;;
		*) note "unknown input $label"; continue ;;
		esac
		[ -s "$in" ] || { echo "$label: input not present ($in)"; continue; }
		[ -n "$ours" ] && [ ! -s "$ours" ] && { echo "$label: timed input not made"; continue; }
		"$BIN" render "${extra[@]}" "${ours:-$in}" -o "$TMP/$label-ours.svg" 2>/dev/null ||
			{ echo "$label: uniprof-flame render failed"; continue; }
		files+=("$label|uniprof-flame=$TMP/$label-ours.svg")
		if [ -n "$fg" ]; then
			if perl "$fg" "${extra[@]}" "$in" >"$TMP/$label-fg.svg" 2>/dev/null; then
				files+=("$label|flamegraph.pl=$TMP/$label-fg.svg")
			else
				echo "$label: flamegraph.pl failed"
			fi
		fi
	done
	[ -n "${BENCH_KEEP:-}" ] && mkdir -p "$BENCH_KEEP" && cp "$TMP"/*.svg "$BENCH_KEEP/"
	for b in ${BENCH_BROWSERS:-chrome firefox}; do
		local runs=${BENCH_RUNS:-5} exe=/usr/bin/chromium
		[ "$b" = firefox ] && runs=${BENCH_FF_RUNS:-3} exe=/usr/bin/firefox-esr
		[ -x "$exe" ] || { echo "$b: $exe not present"; continue; }
		echo
		timeout 3600 node "$here/measure.js" --browser "$b" --runs "$runs" "${files[@]}" ||
			note "$b: measure.js exited with $?"
	done
	return 0
}

main
exit 0
