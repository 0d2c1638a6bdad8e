#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-release.sh — the release binary's own ELF and DWARF paths.
#
# Every other record test runs the ASan build, which links libdw and libelf
# directly.  build/uniprof-flame opens them on first use instead
# (elfload/elfutils.c), so a wrapper with a wrong argument order or a
# missing function would pass those tests and break every user's record.
# This runs the CFI unwinding suite (-O2 and frameless-leaf programs,
# libc's qsort calling back), source lines (DWARF line tables) and the
# symbol tables of `fold --symbols` again with the release binary, and
# checks that a run reading no ELF file does not load libdw at all.
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")

if [ ! -x "$UF_REL" ]; then
	fail "release binary" "$UF_REL is missing (make all)"
	exit 0
fi
for t in t-unwind.sh t-lines.sh ../symtab/t-fold-symbols.sh; do
	UF=$UF_REL bash "$here/$t" | sed -E 's/^(PASS|FAIL|SKIP): /\1: release binary: /'
done

# render never opens libdw: its start is what elfload buys
printf 'main;a 1\n' >"$TMP/in.folded"
LD_DEBUG=files "$UF_REL" render "$TMP/in.folded" -o "$TMP/out.svg" 2>"$TMP/ld.log"
if [ -s "$TMP/out.svg" ] && ! grep -q 'libdw' "$TMP/ld.log" && grep -q 'libz' "$TMP/ld.log"; then
	pass "render loads no libdw (the loader's log names libz, not libdw)"
else
	fail "render loads no libdw" "$(grep -o 'file=[^ ]*' "$TMP/ld.log" | sort -u | tr '\n' ' ')"
fi
# and a run that reads DWARF does
printf '1\n\n' >"$TMP/empty.raw"
LD_DEBUG=files "$UF_REL" fold --symbols "$UF_REL" "$TMP/empty.raw" >/dev/null 2>"$TMP/ld2.log" || true
grep -q 'libdw.so.1' "$TMP/ld2.log" && pass "reading an ELF file opens libdw.so.1 on first use" ||
	fail "reading an ELF file opens libdw" "$(grep -o 'file=[^ ]*' "$TMP/ld2.log" | sort -u | tr '\n' ' ')"
