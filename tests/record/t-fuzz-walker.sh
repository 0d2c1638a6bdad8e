#!/usr/bin/env bash
# tests/record/t-fuzz-walker.sh — a short libFuzzer run over the stack
# walker (frame pointers and CFI rows) with arbitrary registers, rows and
# memory images
# (tests/record/fuzz-walker.c).  FUZZ_SECONDS (default 20) bounds the run.
# Needs clang with libFuzzer.
. "$(dirname "$0")/../lib.sh"
name=record_fuzz_walker
if ! command -v clang >/dev/null 2>&1; then skip $name "clang not installed"; exit 0; fi
cd "$UF_TOP"
if ! clang -std=gnu11 -g -O1 -I. -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -o "$TMP/fuzz" tests/record/fuzz-walker.c \
	unwind/walk.c unwind/space.c unwind/table.c sampler/replay.c sampler/stackset.c \
	sampler/sampler.c util/err.c $(pkg-config --libs libdw libelf) \
	2>"$TMP/cc.log"; then
	if grep -q "fuzzer" "$TMP/cc.log"; then skip $name "clang has no libFuzzer"; exit 0; fi
	fail $name "build failed: $(head -3 "$TMP/cc.log" | tr '\n' ' ')"; exit 0
fi
mkdir -p "$TMP/corpus"
# seed: a good three-frame chain at BASE (sp = fp = BASE)
python3 - "$TMP/corpus/chain" <<'PY' 2>/dev/null || printf '\x08%024d' 0 > "$TMP/corpus/chain"
import struct, sys
base = 0x7fff00000000
img = struct.pack('<6Q', base + 32, 0x401000, 0, 0, 0, 0x402000)
hdr = bytes([0x08]) + struct.pack('<3Q', 0x400000, 0, 0)
open(sys.argv[1], 'wb').write(hdr + img)
PY
if "$TMP/fuzz" -max_total_time="${FUZZ_SECONDS:-20}" -max_len=65536 -rss_limit_mb=2048 -print_final_stats=1 \
	"$TMP/corpus" >"$TMP/fuzz.log" 2>&1; then
	pass "$name ($(grep -o 'stat::number_of_executed_units: *[0-9]*' "$TMP/fuzz.log" | grep -o '[0-9]*$' || echo '?') runs)"
else
	fail $name "crash: $(grep -m1 -E 'ERROR|SUMMARY|deadly' "$TMP/fuzz.log")"
fi
exit 0
