#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-release.sh — the release binary's own ELF and DWARF paths.
#
# Every other record test runs the ASan build; the release binary is what
# users run, built with other flags and link lines (static protobuf-c and
# Xen libraries), so its ELF and DWARF paths are tested on their own.
# This runs the CFI unwinding suite (-O2 and frameless-leaf programs,
# libc's qsort calling back), source lines (DWARF line tables) and the
# symbol tables of `fold --symbols` again with the release binary, and
# checks that ldd and dpkg-shlibdeps see libdw and libelf.
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")

if [ ! -x "$UF_REL" ]; then
	fail "release binary" "$UF_REL is missing (make all)"
	exit 0
fi
for t in t-unwind.sh t-lines.sh ../symtab/t-fold-symbols.sh; do
	UF=$UF_REL bash "$here/$t" | sed -E 's/^(PASS|FAIL|SKIP): /\1: release binary: /'
done

# libdw and libelf are linked, visible to ldd and to packagers (issue 31
# item 7): a binary copied into a minimal dom0 by its ldd list, or packaged
# by dpkg-shlibdeps, must carry them.
ldd "$UF_REL" >"$TMP/ldd.txt" 2>&1
if grep -q 'libdw\.so\.1 => /' "$TMP/ldd.txt" && grep -q 'libelf\.so\.1 => /' "$TMP/ldd.txt"; then
	pass "ldd lists libdw.so.1 and libelf.so.1"
else
	fail "ldd lists libdw.so.1 and libelf.so.1" "$(tr '\n' ' ' <"$TMP/ldd.txt")"
fi
# dpkg-shlibdeps reads DT_NEEDED: the packages a .deb of this binary depends on
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
	mkdir -p "$TMP/pkg/debian" && printf 'Source: uf\n\nPackage: uf\nArchitecture: any\n' >"$TMP/pkg/debian/control"
	cp "$UF_REL" "$TMP/pkg/uf"
	(cd "$TMP/pkg" && dpkg-shlibdeps -O uf) >"$TMP/shlibdeps.txt" 2>&1
	if grep -q 'libdw1' "$TMP/shlibdeps.txt" && grep -q 'libelf1' "$TMP/shlibdeps.txt"; then
		pass "dpkg-shlibdeps names libdw1 and libelf1"
	else
		fail "dpkg-shlibdeps names libdw1 and libelf1" "$(tr '\n' ' ' <"$TMP/shlibdeps.txt")"
	fi
else
	skip "dpkg-shlibdeps names libdw1 and libelf1" "no dpkg-shlibdeps (apt-get install dpkg-dev)"
fi
