#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/run.sh — runs libFuzzer harnesses (built by `make fuzz-build`).
#
#   tests/fuzz/run.sh SECONDS NAME...
#
# Each harness runs SECONDS at nice 19 on one core, one after the other,
# over its working corpus build/fuzz/corpus/NAME (seeded from
# tests/fuzz/corpus/NAME and tests/fuzz/crashes/NAME), with its dictionary
# when there is one, and the flags in tests/fuzz/NAME.options (then any
# in $FUZZ_ARGS, e.g. FUZZ_ARGS=-runs=2000000 to stop at a count).  A
# crash input lands in build/fuzz/crash/NAME/; copy
# it to tests/fuzz/crashes/NAME/ with the fix so `make check` replays it.
# Appends one line per run to build/fuzz/stats.tsv:
#   date  name  wall-seconds  execs  cov  ft  corpus  result  cpu-seconds
# (the run is niced: on a loaded machine its CPU time is far below its
# wall time, and execs per CPU second is the harness's real speed).
# Exits 1 when any harness crashed.
set -u
cd "$(dirname "$0")/../.."
secs=${1:?usage: run.sh SECONDS NAME...}; shift
status=0
for name in "$@"; do
	bin=build/fuzz/fuzz-$name
	[ -x "$bin" ] || { echo "fuzz: no harness $bin" >&2; status=1; continue; }
	work=build/fuzz/corpus/$name crash=build/fuzz/crash/$name
	mkdir -p "$work" "$crash"
	seeds=()
	for d in tests/fuzz/corpus/$name tests/fuzz/crashes/$name; do [ -d "$d" ] && seeds+=("$d"); done
	dict=()
	[ -f tests/fuzz/dict/$name.dict ] && dict=(-dict=tests/fuzz/dict/$name.dict)
	# per-harness libFuzzer flags (e.g. -max_len=4096), one line
	[ -f tests/fuzz/$name.options ] && read -r -a opts <tests/fuzz/$name.options || opts=()
	log=build/fuzz/$name.log
	TIMEFORMAT='%U %S'
	t0=$SECONDS
	{ time nice -n 19 "$bin" -max_total_time="$secs" -print_final_stats=1 -timeout=60 \
		-rss_limit_mb=2048 -artifact_prefix="$crash/" "${opts[@]}" ${FUZZ_ARGS:-} "${dict[@]}" "$work" "${seeds[@]}" \
		>"$log" 2>&1; rc=$?; } 2>"$log.cpu"
	wall=$((SECONDS - t0))
	cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$log.cpu")
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
	cov=$(grep -oE '(DONE|#[0-9]+).*cov: [0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+' | grep -oE '[0-9]+')
	ft=$(grep -oE 'ft: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
	corp=$(grep -oE 'corp: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+')
	result=ok
	[ $rc -ne 0 ] && { result=crash; status=1; }
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$name" "$wall" \
		"${execs:-0}" "${cov:-?}" "${ft:-?}" "${corp:-?}" "$result" "${cpu:-?}" >>build/fuzz/stats.tsv
	echo "fuzz $name: ${execs:-0} execs (${cpu:-?} s CPU), cov ${cov:-?}, ft ${ft:-?}, corpus ${corp:-?}: $result"
	[ $rc -ne 0 ] && grep -m3 -E 'ERROR|SUMMARY|fuzz oracle|runtime error' "$log" | sed 's/^/  /'
done
exit $status
