#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# scripts/same-output.sh — proves a refactor changed no output byte: builds
# git revision REF in a temporary worktree, runs REF's binary and this
# tree's over the same inputs, and compares every output with cmp.
#
#   scripts/same-output.sh REF          e.g. scripts/same-output.sh c9608d1
#
# Inputs: every tests/data profile (folded, perf script, uniprof raw with
# its nm table), a gzipped copy, and the bench generators' shapes
# (bench/gen-folded.c flat + perturbed, bench/gen-shapes.c little, tree,
# deep, names) at small sizes, built from THIS tree so both binaries read
# the same bytes.  Runs: render (default, --icicle, --flamechart, --hash,
# --no-js, --embed=full), fold (folded, --format pprof, --format
# speedscope, --flamechart), fold of the rendered SVG (the embedded block
# read back), diff of two runs, and fold --symbols of the raw traces.
# `record` is left out: live sampling is not repeatable.
#
# Environment: UF_REF_BIN=path skips building REF (use a binary of it you
# have); UF_NEW_BIN=path (default build/uniprof-flame, built if missing);
# SAME_KEEP=1 keeps the outputs and prints where; SAME_INFLATE=1 compares
# an SVG whose bytes differ once more with its embedded block inflated
# (scripts/svg-inflated.py: the base64 lines and their `<!-- -->` chunk
# breaks replaced by the zlib stream's inflated bytes, its Adler-32
# checked), for a change of compressor, which may change the block's
# base64 but never what it inflates to nor any other byte.  Exit 0 when
# every output is identical, 1 listing the ones that differ, 2 on a usage
# or build error.
# Design: byte comparison, not semantic: a refactor that claims "behaviour
# unchanged" must not move a byte; a deliberate change shows up here and
# its commit says why.  Cost: about 1 minute to build REF on 2 cores, a few
# seconds to run (nice'd).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
ref=${1:-}
if [ -z "$ref" ] || [ "$ref" = -h ] || [ "$ref" = --help ]; then
	echo "usage: scripts/same-output.sh REF   (a git revision to compare with)" >&2
	exit 2
fi
if ! git -C "$top" rev-parse --verify -q "$ref^{commit}" >/dev/null; then
	echo "same-output: '$ref': not a git revision" >&2
	exit 2
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/uf-same.XXXXXX")
cleanup() {
	[ -d "$tmp/ref" ] && git -C "$top" worktree remove --force "$tmp/ref" >/dev/null 2>&1
	if [ "${SAME_KEEP:-}" = 1 ]; then echo "same-output: outputs kept in $tmp"; else rm -rf "$tmp"; fi
}
trap cleanup EXIT

new=${UF_NEW_BIN:-$top/build/uniprof-flame}
if [ -z "${UF_NEW_BIN:-}" ]; then
	nice make -s -C "$top" build/uniprof-flame >"$tmp/new-build.log" 2>&1 ||
		{ echo "same-output: building this tree failed: see $tmp/new-build.log" >&2; SAME_KEEP=1; exit 2; }
fi
old=${UF_REF_BIN:-}
if [ -z "$old" ]; then
	git -C "$top" worktree add -q --detach "$tmp/ref" "$ref" >"$tmp/ref-build.log" 2>&1 &&
		nice make -s -C "$tmp/ref" -j2 build/uniprof-flame >>"$tmp/ref-build.log" 2>&1 ||
		{ echo "same-output: building $ref failed: see $tmp/ref-build.log" >&2; SAME_KEEP=1; exit 2; }
	old=$tmp/ref/build/uniprof-flame
fi

# ---- inputs, made once from this tree -------------------------------------
in=$tmp/in
mkdir -p "$in"
cp "$top"/tests/data/*/*.folded "$in"/ 2>/dev/null
cp "$top/tests/data/interop/perf-edge.txt" "$in/perf-edge.perf"
gzip -n -c "$top/tests/data/render/small.folded" >"$in/small-gz.folded.gz"
cc -std=gnu11 -O2 -o "$tmp/gen-folded" "$top/bench/gen-folded.c" -lm &&
	cc -std=gnu11 -O2 -o "$tmp/gen-shapes" "$top/bench/gen-shapes.c" -lm ||
	{ echo "same-output: building the bench generators failed" >&2; exit 2; }
"$tmp/gen-folded" flat 3000 7 "$in/flat.folded" "$in/flat-b.folded" >/dev/null &&
	"$tmp/gen-folded" tree 3000 7 "$in/gtree.folded" >/dev/null &&
	"$tmp/gen-shapes" little 3000 11 "$in/little.folded" >/dev/null &&
	"$tmp/gen-shapes" tree 3000 2 "$in/tree.folded" >/dev/null &&
	"$tmp/gen-shapes" tree 3000 3 "$in/tree-b.folded" >/dev/null &&
	"$tmp/gen-shapes" deep 200 13 "$in/deep.folded" >/dev/null &&
	"$tmp/gen-shapes" names 3000 17 "$in/names.folded" >/dev/null ||
	{ echo "same-output: the bench generators failed" >&2; exit 2; }

# ---- runs: each case is NAME and the arguments after the binary -----------
cases=()
add() { cases+=("$*"); }
for f in "$in"/*.folded "$in"/*.gz "$in"/*.perf; do
	b=$(basename "$f")
	add "render-$b.svg|render $f -o @OUT"
	add "fold-$b.folded|fold $f -o @OUT"
	add "pprof-$b.pb.gz|fold --format pprof $f -o @OUT"
	add "speedscope-$b.json|fold --format speedscope $f -o @OUT"
done
for f in "$in"/small.folded "$in"/tree.folded "$in"/deep.folded "$in"/flat.folded; do
	b=$(basename "$f")
	add "icicle-$b.svg|render --icicle $f -o @OUT"
	add "chart-$b.svg|render --flamechart $f -o @OUT"
	add "hash-$b.svg|render --hash --title T --width 800 $f -o @OUT"
	add "nojs-$b.svg|render --no-js $f -o @OUT"
	add "full-$b.svg|render --embed=full $f -o @OUT"
	add "foldchart-$b.folded|fold --flamechart $f -o @OUT"
done
add "diff-flat.svg|diff $in/flat.folded $in/flat-b.folded -o @OUT"
add "diff-tree.svg|diff $in/tree.folded $in/tree-b.folded -o @OUT"
add "diff-browser.svg|diff $in/diff-before.folded $in/diff-after.folded -o @OUT"
add "fold-diff.folded|fold --diff $in/tree.folded $in/tree-b.folded -o @OUT"
add "raw-symbols.folded|fold --symbols $top/tests/data/symtab/app.nm $top/tests/data/symtab/uniprof.raw -o @OUT"

# run BIN DIR: every case into DIR, exit status and stderr beside the output
run() {
	local bin=$1 dir=$2 c name args
	mkdir -p "$dir"
	for c in "${cases[@]}"; do
		name=${c%%|*} args=${c#*|}
		# shellcheck disable=SC2086 # args are our own, space-free paths
		# run in DIR with a relative output name: messages name the same path
		(cd "$dir" && nice "$bin" ${args//@OUT/$name}) >"$dir/$name.stdout" 2>"$dir/$name.stderr"
		echo $? >"$dir/$name.rc"
	done
	# SVGs read back: the embedded block through fold
	for s in "$dir"/render-*.svg "$dir"/full-*.svg; do
		[ -f "$s" ] || continue
		s=$(basename "$s")
		(cd "$dir" && nice "$bin" fold "$s" -o "$s.back.folded") 2>"$dir/$s.back.stderr"
		echo $? >"$dir/$s.back.rc"
	done
}
run "$old" "$tmp/old"
run "$new" "$tmp/new"

# ---- compare ---------------------------------------------------------------
n=0 bad=0 inflated=0
for o in "$tmp"/old/*; do
	f=$(basename "$o")
	n=$((n + 1))
	if [ ! -f "$tmp/new/$f" ]; then
		echo "DIFFER: $f: missing from this tree's run"
		bad=$((bad + 1))
	elif cmp -s "$o" "$tmp/new/$f"; then
		:
	elif [ "${SAME_INFLATE:-}" = 1 ] && [ "${f%.svg}" != "$f" ] &&
		cmp -s <(python3 "$top/scripts/svg-inflated.py" "$o") <(python3 "$top/scripts/svg-inflated.py" "$tmp/new/$f"); then
		inflated=$((inflated + 1))
	else
		echo "DIFFER: $f: $(cmp "$o" "$tmp/new/$f" 2>&1 | head -1)"
		bad=$((bad + 1))
	fi
done
for o in "$tmp"/new/*; do
	[ -f "$tmp/old/$(basename "$o")" ] || { echo "DIFFER: $(basename "$o"): only in this tree's run"; bad=$((bad + 1)); }
done
failed=$(grep -L '^0$' "$tmp"/new/*.rc | wc -l)
echo "same-output: $n files compared ($(ls "$tmp"/new/*.rc | wc -l) runs, $failed of them exit non-zero in both), $bad differ$([ "${SAME_INFLATE:-}" = 1 ] && echo ", $inflated the same only with the embedded block inflated") (REF $ref vs $(git -C "$top" rev-parse --short HEAD)$(git -C "$top" diff --quiet HEAD || echo '+changes'))"
[ "$bad" = 0 ]
