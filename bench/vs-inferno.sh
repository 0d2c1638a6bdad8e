#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/vs-inferno.sh — `make bench-peers`: uniprof-flame beside inferno
# (and flamegraph.pl where the input is small enough), run in ONE script,
# interleaved, on the same inputs, on this machine, now (issue 32).
#
# A speed ratio against a peer is only quoted from this table: both tools
# run here, alternately (ours, inferno, ours, inferno, ...), best of N wall
# times each, so a load spike hits both alike.  The machine's load average
# is printed before and after; a figure taken beside other work is marked.
#
# Rows (the issue's shapes plus the bench's own):
#   example-perf  FlameGraph's real 646 KB perf capture, folded (../shared)
#   tree-100k     100k stacks sampled from a call tree (bench/gen-shapes.c)
#   tree-64k      the bench's call-tree shape
#   little-100k   100k little-sharing stacks
#   little-1m     1M little-sharing stacks (left out with BENCH_QUICK=1)
#   diff-tree-64k `diff A B` beside `inferno-diff-folded A B | inferno-flamegraph`
# Every run writes a new output file (see pair).
# Columns: best wall s, CPU s (user+sys) and its sys part, peak RSS MiB,
# for each tool; then inferno's best wall / ours ("x faster"), "paired":
# the median over the runs of inferno's wall / ours in the same iteration
# (steadier when the host slows the VM for a while), and the goal's
# verdict on the first (>= 3x at <= inferno's RSS).  Under each row, when the CPU has
# counters perf can read, user-space instructions of one run of each
# (`perf stat -e instructions:u`) and their ratio: a figure that other
# work on the machine barely moves (BENCH_INSTR=0 leaves it out).
#
# Peers: built by ../shared/peers/build-peers.sh into $PEERS
# (default ~/.cache/uniprof-flame-peers); nothing of theirs is committed.
# Environment: PEERS, BENCH_BIN, BENCH_PEER_RUNS (default 3), BENCH_QUICK=1.
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# bench/run.sh's inputs, generators and measuring tools, without its run
# shellcheck source=bench/run.sh
. "$here/run.sh"

PEERS=${PEERS:-$HOME/.cache/uniprof-flame-peers}
N=${BENCH_PEER_RUNS:-3}

find_peer() { # NAME: path of a built peer binary, or nothing
	local f
	for f in "$PEERS/inferno/bin/$1" "$PEERS/bin/$1" "$(command -v "$1" 2>/dev/null)"; do
		[ -n "$f" ] && [ -x "$f" ] && { echo "$f"; return 0; }
	done
	return 1
}

# once OUTFILE CMD...: one run under rusage, its stdout to OUTFILE; prints
# "WALL RSS_KIB STATUS CPU SYS".  SYS is the delta of this shell's cstime
# (children's system time, rusage and what it waited for included).
once() {
	local out=$1 rep=$TMP/rep t0 t1 w r st c
	shift
	t0=$(awk '{print $17}' /proc/$$/stat)
	"$OUT/rusage" "$rep" "$@" >"$out" 2>>"$OUT/logs/peers.err" || { echo "0 0 127 0 0"; return; }
	t1=$(awk '{print $17}' /proc/$$/stat)
	read -r w r st c <"$rep"
	echo "$w $r $st $c $(awk -v a="$t0" -v b="$t1" -v hz="$(getconf CLK_TCK)" 'BEGIN{printf "%.3f", (b-a)/hz}')"
}

# best FILE COL: smallest value of column COL over FILE's lines
best() { awk -v c="$2" 'NR == 1 || $c + 0 < m { m = $c + 0 } END { print m }' "$1"; }
worst() { awk -v c="$2" '$c + 0 > m { m = $c + 0 } END { print m + 0 }' "$1"; }

# paired A B: the median over the runs of B's wall / A's, run i with run i.
# The two runs of one iteration are adjacent in time, so a stretch when
# the whole machine ran slower (this VM's host) moves both: steadier than
# a ratio of bests taken minutes apart.
paired() {
	paste -d' ' "$1" "$2" | awk '$1 > 0 { print $6 / $1 }' | sort -g |
		awk '{ v[NR] = $1 } END { if (NR == 0) print 0; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# pair LABEL -- OURS_ARGV -- PEER_ARGV: N interleaved runs of each (stdout
# to a scratch file); one table row.
pair() {
	local label=$1 i st ours=() peer=()
	shift 2
	while [ "$1" != -- ]; do ours+=("$1"); shift; done
	shift
	peer=("$@")
	: >"$TMP/a"; : >"$TMP/b"
	for ((i = 0; i < N; i++)); do
		# Both tools write the SVG to stdout, a new file this shell's `>`
		# makes before the clock starts: inferno has no -o, and ours with
		# -o made its file (and renamed it) inside its clock, 35-40 us of
		# the small capture's 2.3 ms (session 20, 61 runs).  Without the
		# rm, an old output would be truncated by `>` before the clock:
		# ext4 frees its blocks and starts writeback of the new one (0.5-1
		# ms of a 4 ms run when it happened inside one tool's clock only).
		rm -f "$TMP/o.svg" "$TMP/o.out" "$TMP/p.out"
		once "$TMP/o.out" "${ours[@]}" >>"$TMP/a"
		rm -f "$TMP/o.svg" "$TMP/o.out" "$TMP/p.out"
		once "$TMP/p.out" "${peer[@]}" >>"$TMP/b"
	done
	st=$(awk '$3 != 0 { print $3; exit }' "$TMP/a" "$TMP/b")
	if [ -n "$st" ]; then
		printf '%-14s FAILED (exit %s; see %s)\n' "$label" "$st" "$OUT/logs/peers.err"
		return
	fi
	awk -v l="$label" -v aw="$(best "$TMP/a" 1)" -v ac="$(best "$TMP/a" 4)" -v as="$(best "$TMP/a" 5)" \
		-v ar="$(worst "$TMP/a" 2)" -v bw="$(best "$TMP/b" 1)" -v bc="$(best "$TMP/b" 4)" \
		-v bs="$(best "$TMP/b" 5)" -v br="$(worst "$TMP/b" 2)" -v pr="$(paired "$TMP/a" "$TMP/b")" 'BEGIN {
		ratio = bw / aw
		v = (ratio >= 3 && ar <= br) ? "met" : "MISSED"
		printf "%-14s %8.4f %7.3f %6.3f %7.1f | %8.4f %7.3f %6.3f %7.1f | %5.2fx %6.2fx  %s\n",
			l, aw, ac, as, ar / 1024, bw, bc, bs, br / 1024, ratio, pr, v }'
	instr_line "${ours[@]}" -- "${peer[@]}"
}

# instr CMD...: user-space instructions of one run (millions), or nothing
# when perf cannot count them here (no PMU in a VM, perf missing).
instr() {
	perf stat -x, -e instructions:u "$@" 2>&1 >/dev/null |
		awk -F, '/instructions/ && $1 ~ /^[0-9]+$/ { printf "%.1f", $1 / 1e6 }'
}

# instr_line OURS_ARGV -- PEER_ARGV: "  instructions:u ours X M, inferno Y M
# (Zx)" under the row; without counters, one note at the end instead.
INSTR_NOTE=
instr_line() {
	local ours=() a b
	[ "${BENCH_INSTR:-1}" = 1 ] && command -v perf >/dev/null 2>&1 || return 0
	while [ "$1" != -- ]; do ours+=("$1"); shift; done
	shift
	a=$(instr "${ours[@]}")
	b=$(instr "$@")
	if [ -z "$a" ] || [ -z "$b" ]; then
		INSTR_NOTE="instructions: not counted (perf stat -e instructions:u reads no counter here)"
		return 0
	fi
	awk -v a="$a" -v b="$b" 'BEGIN { printf "  instructions:u ours %.1f M, inferno %.1f M (%.2fx)\n", a, b, b / a }'
}

peers_main() {
	local inf dif ex=$EXAMPLE s load
	inf=$(find_peer inferno-flamegraph) || { note "inferno not built: run ../shared/peers/build-peers.sh (see its README)"; return 0; }
	dif=$(find_peer inferno-diff-folded) || dif=
	build_tool rusage && build_tool gen-shapes || { note "cannot build bench tools"; return 0; }
	gen_shapes || { note "shape generation failed"; return 0; }
	read -r load _ </proc/loadavg
	echo "uniprof-flame ${BENCH_BIN:-$(git -C "$TOP" describe --always --dirty 2>/dev/null)} beside $(head -n 1 "$PEERS/inferno/BUILD-INFO.txt" 2>/dev/null || echo "inferno (no BUILD-INFO.txt)")"
	echo "$(nproc) cores, $(date -u '+%Y-%m-%d %H:%M UTC'), load average before: $load; best of $N interleaved runs each; ratio = best / best, paired = median of inferno / ours run by run"
	printf '%-14s %8s %7s %6s %7s | %8s %7s %6s %7s | %6s %7s  %s\n' shape "ours s" cpu sys "RSS MiB" \
		"inferno s" cpu sys "RSS MiB" ratio paired "goal >=3x, <= RSS"
	[ -s "$ex" ] && warm "$ex" && pair example-perf -- "$BIN" render "$ex" -- "$inf" "$ex"
	for s in tree-100k tree-64k little-100k little-1m; do
		[ -s "$OUT/$s.folded" ] || continue
		[ "${BENCH_QUICK:-0}" = 1 ] && [ "$s" = little-1m ] && continue
		warm "$OUT/$s.folded"
		pair "$s" -- "$BIN" render "$OUT/$s.folded" -- "$inf" "$OUT/$s.folded"
	done
	if [ -n "$dif" ]; then # inferno's diff is two programs: the pipe is its cost
		warm "$OUT/tree-64k.folded" "$OUT/tree-64k-b.folded"
		pair diff-tree-64k -- "$BIN" diff "$OUT/tree-64k.folded" "$OUT/tree-64k-b.folded" \
			-- sh -c '"$1" "$3" "$4" | "$2"' sh "$dif" "$inf" "$OUT/tree-64k.folded" "$OUT/tree-64k-b.folded"
	fi
	[ -n "$INSTR_NOTE" ] && echo "$INSTR_NOTE"
	read -r load _ </proc/loadavg
	echo "load average after: $load$(awk -v l="$load" -v n="$(nproc)" 'BEGIN { if (l + 0 > n / 2) print " (other work ran beside: figures are noisy)" }')"
}

peers_main
exit 0
