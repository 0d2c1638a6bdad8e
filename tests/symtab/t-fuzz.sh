#!/usr/bin/env bash
# tests/symtab/t-fuzz.sh — a short libFuzzer run over the ELF, nm and raw
# trace readers (tests/symtab/fuzz-symtab.c), seeded with real files.
# FUZZ_SECONDS (default 20) bounds the run.  Needs clang with libFuzzer.
. "$(dirname "$0")/../lib.sh"
name=symtab_fuzz_readers
if ! command -v clang >/dev/null 2>&1; then skip $name "clang not installed"; exit 0; fi
cd "$UF_TOP"
srcs=$(ls symtab/*.c fold/*.c util/*.c)
# fold/write-pprof.c needs the protoc-c output `make` puts in build/gen
if ! clang -std=gnu11 -g -O1 -I. -Ibuild/gen -D_GNU_SOURCE $(pkg-config --cflags libxml-2.0) \
	-fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-o "$TMP/fuzz" tests/symtab/fuzz-symtab.c $srcs build/gen/profile.pb-c.c \
	$(pkg-config --libs libelf libdw libxml-2.0) -lprotobuf-c -lz -lm 2>"$TMP/cc.log"; then
	if grep -q "fuzzer" "$TMP/cc.log"; then skip $name "clang has no libFuzzer"; exit 0; fi
	fail $name "build failed: $(head -3 "$TMP/cc.log" | tr '\n' ' ')"; exit 0
fi
mkdir -p "$TMP/corpus"
# seeds: a real ELF (selector 0), its nm text (1), a raw trace (2)
cc -O1 -o "$TMP/seed" -x c - <<<'static int f(int x){return x+1;} int main(int c,char**v){return f(c);}' 2>/dev/null
{ printf '\0'; head -c 200000 "$TMP/seed"; } >"$TMP/corpus/elf"
{ printf '\1'; nm -n "$TMP/seed" 2>/dev/null; } >"$TMP/corpus/nm"
printf '\002#tracing x\n\n0x1000\nf+0x10\n0x2000\n1\n\n0x0\n0\n\n' >"$TMP/corpus/raw"
if "$TMP/fuzz" -max_total_time="${FUZZ_SECONDS:-20}" -max_len=262144 -rss_limit_mb=2048 \
	"$TMP/corpus" >"$TMP/fuzz.log" 2>&1; then
	pass $name
else
	fail $name "crash: $(grep -m1 -E 'ERROR|SUMMARY' "$TMP/fuzz.log")"
fi
