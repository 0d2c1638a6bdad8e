#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/record/t-release.sh — the release binary's own ELF and DWARF paths.
#
# Every other record test runs the ASan build; the release binary is what
# users run, built with other flags and link lines (every library but
# glibc from its static archive, libdw and libelf among them), so its ELF
# and DWARF paths are tested on their own.  This runs the CFI unwinding
# suite (-O2 and frameless-leaf programs, libc's qsort calling back),
# source lines (DWARF line tables) and the symbol tables of `fold
# --symbols` again with the release binary, and checks what ldd and
# dpkg-shlibdeps say it needs at run time.
. "$(dirname "$0")/../lib.sh"
here=$(dirname "$0")

if [ ! -x "$UF_REL" ]; then
	fail "release binary" "$UF_REL is missing (make all)"
	exit 0
fi
for t in t-unwind.sh t-lines.sh ../symtab/t-fold-symbols.sh; do
	UF=$UF_REL bash "$here/$t" | sed -E 's/^(PASS|FAIL|SKIP): /\1: release binary: /'
done

# The release binary links libdw, libelf, zlib, liblzma and libbz2 from
# their static archives (Makefile, REL_LIBS): a copy into a minimal dom0
# needs nothing but libc, and a .deb of it depends on libc6 alone (issue
# 31 item 7 asked that no dependency be hidden: there is none left to
# find at run time; `--version` names the versions linked in,
# tests/gdb/t-version.sh).  The unwinding, line and symbol suites above ran
# this binary's own libdw and libelf.  A UF_SHARED_LIBS=1 build links them
# shared, and then ldd and dpkg-shlibdeps must see them.
ldd "$UF_REL" >"$TMP/ldd.txt" 2>&1
libs=$(awk '/=> \// { print $1 }' "$TMP/ldd.txt" | sort | tr '\n' ' ')
if [ "${UF_SHARED_LIBS:-0}" = 1 ]; then
	want_ldd='libdw\.so\.1 .*libelf\.so\.1 '
	want_deb='libdw1.*libelf1|libelf1.*libdw1'
else
	want_ldd='^libc\.so\.6 $'
	want_deb='^shlibs:Depends=libc6 [^,]*(, libc6 [^,]*)*$'
fi
if echo "$libs" | grep -Eq "$want_ldd"; then
	pass "ldd lists what the release binary needs at run time: $libs"
else
	fail "ldd of the release binary" "libraries '$libs' (want /$want_ldd/)"
fi
# dpkg-shlibdeps reads DT_NEEDED: the packages a .deb of this binary depends on
if command -v dpkg-shlibdeps >/dev/null 2>&1; then
	mkdir -p "$TMP/pkg/debian" && printf 'Source: uf\n\nPackage: uf\nArchitecture: any\n' >"$TMP/pkg/debian/control"
	cp "$UF_REL" "$TMP/pkg/uf"
	(cd "$TMP/pkg" && dpkg-shlibdeps -O uf 2>/dev/null) >"$TMP/shlibdeps.txt"
	if grep -Eq "$want_deb" "$TMP/shlibdeps.txt"; then
		pass "dpkg-shlibdeps: $(cat "$TMP/shlibdeps.txt")"
	else
		fail "dpkg-shlibdeps" "$(tr '\n' ' ' <"$TMP/shlibdeps.txt") (want /$want_deb/)"
	fi
else
	skip "dpkg-shlibdeps" "no dpkg-shlibdeps (apt-get install dpkg-dev)"
fi
