#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# bench/unwind.sh — figures for CFI unwinding (issue 10).  Prints; never
# fails the build.
#   1. table build time and size: libc.so.6, the QEMU example guest's .dbg
#      and the Xen PV example guest (bench/unwind-bench table)
#   2. cpu ns per frame once memory is read, CFI vs frame pointers
#      (bench/unwind-bench walk)
#   3. stopped time per sample (uniprof-flame's own summary: p50 / p99 of
#      stop request .. end of resume, and of "all threads frozen"), frame
#      pointers vs CFI:
#        ptrace: app-test-1-fp --unwind=fp, the same --unwind=auto, and the
#                -O2 build (no frame pointers) --unwind=auto
#        QEMU:   the guest built with frame pointers, --unwind=fp, against
#                the Unikraft-like guest (.debug_frame only), --unwind=auto
#                (holds /tmp/uf-qemu.lock, one boot at a time)
#        Xen:    the figures tests/xen/t-xen.sh's dom0 took (the guest built
#                with frame pointers, --unwind=fp, against the Unikraft-like
#                build, --unwind=auto), from build/xen/out when present
# BENCH_SECONDS (default 5) per recording.  Walls are noisy on a shared
# machine: the load average is printed; compare rows within one run.
set -u
cd "$(dirname "$0")/.."
SECS=${BENCH_SECONDS:-5}
BIN=build/uniprof-flame
EX=build/examples
make -s build/uniprof-flame examples >/dev/null 2>&1 || { echo "bench/unwind: cannot build; skipped"; exit 0; }
tmp=$(mktemp -d /tmp/uf-bench-unwind.XXXXXX); trap 'rm -rf "$tmp"' EXIT
echo "bench/unwind: load $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
if cc -std=gnu11 -O2 -I. -D_GNU_SOURCE -o "$tmp/ub" bench/unwind-bench.c build/rel/unwind/*.o \
	build/rel/sampler/replay.o build/rel/util/*.o $(pkg-config --libs libdw libelf) 2>"$tmp/cc.log"; then
	make -s -C examples/xen-guest O="$tmp/xg" >/dev/null 2>&1
	libc=$(ldd "$BIN" | awk '/libc.so.6/ { print $3 }')
	"$tmp/ub" table "$libc" "$EX/qemu-guest/qemu-guest.dbg" $( [ -f "$tmp/xg/xen-guest.elf" ] && echo "$tmp/xg/xen-guest.elf")
	echo "      (target: <= 20 ms for libc)"
	"$tmp/ub" walk "$libc"
	echo "      (target: <= 50 ns per frame)"
else
	echo "bench/unwind: unwind-bench does not build: $(head -1 "$tmp/cc.log")"
fi

stops() { # LABEL ERRFILE: the summary's stop figures
	sed -n 's/.*stopped per sample: median \([0-9.]*\) us, p99 \([0-9.]*\) us, max [0-9.]* us (all threads frozen: median \([0-9.]*\) us, p99 \([0-9.]*\) us).*/\1 \2 \3 \4/p' "$2" |
		awk -v l="$1" '{ printf "  %-44s stop p50 %7.1f us  p99 %8.1f us | frozen p50 %6.1f us  p99 %7.1f us\n", l, $1, $2, $3, $4 }'
	sed -n 's/.*walks (--unwind=\([a-z]*\)): \([0-9]*\) complete.*ended early.*callers \([0-9.]*\)% by CFI.*/\2 \3/p' "$2" |
		awk '{ printf "  %-44s %s walks complete, %s%% of callers by CFI\n", "", $1, $2 }'
}

echo "stopped time per sample, ptrace (-F 499 -T $SECS):"
"$BIN" -q -F 499 -T 1 --folded /dev/null -- "$EX/app-test-1-fp" 2 2>/dev/null # warm the page cache
for run in "app-test-1-fp fp" "app-test-1-fp auto" "app-test-1 auto" "app-test-1 fp"; do
	set -- $run
	"$BIN" -F 499 -T "$SECS" --unwind="$2" --folded "$tmp/p.folded" -- "$EX/$1" $((SECS + 1)) 2>"$tmp/p.err" >/dev/null
	stops "$1 --unwind=$2" "$tmp/p.err"
done

qemu_run() { # ELF DBG MODE LABEL
	local sock=$tmp/gdb.sock q
	rm -f "$sock"
	timeout $((SECS + 60)) qemu-system-x86_64 -accel tcg -m 64 -nodefaults -display none \
		-serial "file:$tmp/serial.log" -kernel "$1" -gdb "unix:$sock,server=on,wait=off" 2>/dev/null &
	q=$!
	for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
	for _ in $(seq 200); do grep -q 'uniprof-flame guest' "$tmp/serial.log" 2>/dev/null && break; sleep 0.05; done
	timeout $((SECS + 30)) "$BIN" --gdb "unix:$sock" -x "$2" --unwind="$3" -F 99 -T "$SECS" \
		--folded "$tmp/q.folded" 2>"$tmp/q.err" >/dev/null
	kill $q 2>/dev/null; wait $q 2>/dev/null
	rm -f "$tmp/serial.log"
	stops "$4" "$tmp/q.err"
}
if command -v qemu-system-x86_64 >/dev/null; then
	echo "stopped time per sample, QEMU gdbstub (TCG, -F 99 -T $SECS):"
	make -s -C examples/qemu-guest OUT="$tmp/qfp" FPFLAGS=1 >/dev/null 2>&1
	export -f qemu_run stops
	export tmp SECS BIN
	flock /tmp/uf-qemu.lock bash -c "
		qemu_run '$tmp/qfp/qemu-guest.elf' '$tmp/qfp/qemu-guest.dbg' fp 'guest with frame pointers --unwind=fp'
		qemu_run '$EX/qemu-guest/qemu-guest.elf' '$EX/qemu-guest/qemu-guest.dbg' auto 'guest without (.debug_frame) --unwind=auto'
		qemu_run '$EX/qemu-guest/qemu-guest.elf' '$EX/qemu-guest/qemu-guest.dbg' fp 'guest without --unwind=fp'"
else
	echo "QEMU: skipped (qemu-system-x86_64 not installed)"
fi

echo "stopped time per sample, Xen PV guest (from tests/xen dom0 under QEMU/TCG, -F 50):"
if [ -f build/xen/out/unwind-fp.log ] && [ -f build/xen/out/unwind-auto.log ]; then
	stops "guest with frame pointers --unwind=fp" build/xen/out/unwind-fp.log
	stops "guest without (.debug_frame) --unwind=auto" build/xen/out/unwind-auto.log
else
	echo "  (none: run TESTS=xen tests/run-all.sh first)"
fi
exit 0
