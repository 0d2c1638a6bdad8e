#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/gdb.sh — the cost of sampling a QEMU guest through its gdbstub.
#
# Boots examples/qemu-guest under QEMU (software emulation: -accel tcg, or
# BENCH_ACCEL=kvm) and drives gdb-if/ directly with tests/gdb/gdb-sample
# (stop, registers, frame-pointer walk, resume; no symbolization):
#   - time per sample (interrupt sent .. resume sent, as the sampler
#     measures it): median, p99, and the median of each phase, at 99 Hz and
#     back to back.  For fused samples (gdb-if/gdb.h) this is the round
#     trip; the guest itself is paused only while QEMU handles the batch,
#     which shows in the throughput figures below;
#   - samples per second achievable (back to back);
#   - the guest's throughput loss at 99 Hz: the share of time it is
#     stopped (samples/s x mean stop), and measured: rounds/s of the
#     workload (its uf_rounds counter, read through the stub) against
#     unsampled runs before and after (noisy on a loaded machine: emulated
#     guest speed follows the host's load).
# Prints figures; never fails.  QEMU holds /tmp/uf-qemu.lock and runs
# under `timeout`.  BENCH_SECONDS (default 10) per measurement.
set -u
cd "$(dirname "$0")/.."
SECS=${BENCH_SECONDS:-10}
ACCEL=${BENCH_ACCEL:-tcg}
GUEST=build/examples/qemu-guest
command -v qemu-system-x86_64 >/dev/null || { echo "bench/gdb: skipped: qemu-system-x86_64 not installed"; exit 0; }
make --no-print-directory -s -C examples/qemu-guest >/dev/null || { echo "bench/gdb: skipped: guest does not build"; exit 0; }
mkdir -p build
cc -std=gnu11 -O2 -I. -D_GNU_SOURCE -o build/gdb-sample tests/gdb/gdb-sample.c gdb-if/*.c util/err.c ||
	{ echo "bench/gdb: skipped: gdb-sample does not build"; exit 0; }
ctr=$(nm "$GUEST/qemu-guest.dbg" | awk '$3 == "uf_rounds" { print $1 }')
dir=$(mktemp -d /tmp/uf-bench-gdb.XXXXXX)
trap 'rm -rf "$dir"' EXIT

val() { awk -v k="$1" '$1 == k { print $2 }' "$2"; }

run() { # run NAME ARGS... : one gdb-sample run against the booted guest
	local name=$1; shift
	build/gdb-sample "unix:$dir/gdb.sock" "$@" >"$dir/$name" 2>&1 || true
}

bench() {
	timeout $((SECS * 5 + 60)) qemu-system-x86_64 -accel "$ACCEL" -m 64 -nodefaults \
		-display none -kernel "$GUEST/qemu-guest.elf" -serial "file:$dir/serial.log" \
		-gdb "unix:$dir/gdb.sock,server=on,wait=off" 2>/dev/null &
	local q=$!
	for _ in $(seq 200); do [ -S "$dir/gdb.sock" ] && break; sleep 0.05; done
	for _ in $(seq 200); do grep -q 'uniprof-flame guest' "$dir/serial.log" 2>/dev/null && break; sleep 0.05; done
	run base1 -b -T "$SECS" -c "$ctr"
	run hz99 -F 99 -T "$SECS" -c "$ctr"
	run base2 -b -T "$SECS" -c "$ctr"
	run max -F 0 -T "$SECS" -c "$ctr"
	kill $q 2>/dev/null; wait $q 2>/dev/null
}
flock /tmp/uf-qemu.lock bash -c "$(declare -f bench run); dir=$dir SECS=$SECS ACCEL=$ACCEL GUEST=$GUEST ctr=$ctr bench"

b1=$(val counter_per_s "$dir/base1") b2=$(val counter_per_s "$dir/base2") s=$(val counter_per_s "$dir/hz99")
echo "bench/gdb: QEMU $(qemu-system-x86_64 --version | head -1 | awk '{print $4}') accel=$ACCEL, load $(cut -d' ' -f1-3 /proc/loadavg), ${SECS}s per run"
for r in hz99 max; do
	[ -n "$(val samples "$dir/$r")" ] || { echo "bench/gdb: $r: failed: $(tail -1 "$dir/$r")"; continue; }
	printf 'bench/gdb: %-4s stop per sample: median %s us, p99 %s us (phases: stop %s, regs+walk %s, resume %s us); %s samples/s, %s round trips/sample\n' \
		"$r" "$(val median_us "$dir/$r")" "$(val p99_us "$dir/$r")" "$(val stop_us "$dir/$r")" \
		"$(val regs_walk_us "$dir/$r")" "$(val resume_us "$dir/$r")" "$(val samples_per_s "$dir/$r")" \
		"$(val trips_per_sample "$dir/$r")"
done
m=$(val mean_us "$dir/hz99") r=$(val samples_per_s "$dir/hz99")
[ -n "$m" ] && awk -v m="$m" -v r="$r" 'BEGIN { printf "bench/gdb: 99 Hz: %.0f samples/s x mean round trip %.0f us = %.2f%% of the time (an upper bound on the guest pause: fused samples resume it inside QEMU)\n", r, m, r * m / 1e4 }'
if [ -n "$b1" ] && [ -n "$b2" ] && [ -n "$s" ]; then
	awk -v a="$b1" -v b="$b2" -v s="$s" 'BEGIN { base = (a + b) / 2;
		printf "bench/gdb: guest throughput: %.0f rounds/s unsampled (%.0f, %.0f), %.0f at 99 Hz: loss %.1f%%\n",
			base, a, b, s, 100 * (1 - s / base) }'
	mx=$(val counter_per_s "$dir/max") mr=$(val samples_per_s "$dir/max") mm=$(val median_us "$dir/max")
	[ -n "$mx" ] && awk -v a="$b1" -v b="$b2" -v s="$mx" -v r="$mr" -v m="$mm" 'BEGIN { base = (a + b) / 2;
		printf "bench/gdb: back to back (%.0f samples/s): guest at %.0f%% of its unsampled speed; %.0f us lost per sample (round trip median %.0f us)\n",
			r, 100 * s / base, (1 - s / base) / r * 1e6, m }'
fi
exit 0
