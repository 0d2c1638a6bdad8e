#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/gdb/t-version.sh — `uniprof-flame --version`: the version line and
# the targets built in; xen must be there exactly when libxen-dev was
# available to an x86-64 build (scripts/deps.sh installs it on amd64; xen-if
# does not compile for Arm).
. "$(dirname "$0")/../lib.sh"
for bin in "$UF" "${UF_REL:-$UF_TOP/build/uniprof-flame}"; do
	[ -x "$bin" ] || { skip "version $(basename "$(dirname "$bin")")" "$bin not built"; continue; }
	name="version $(basename "$(dirname "$bin")")"
	out=$("$bin" --version 2>&1); rc=$?
	[ $rc -eq 0 ] && echo "$out" | head -1 | grep -Eq '^uniprof-flame [0-9]+\.[0-9]+\.[0-9]+$' &&
		pass "$name: version line" || fail "$name: version line" "rc=$rc: $out"
	targets=$(echo "$out" | sed -n 's/^targets: //p')
	echo "$targets" | grep -qw gdb && echo "$targets" | grep -qw ptrace &&
		pass "$name: gdb and ptrace listed" || fail "$name: targets" "'$targets'"
	if [ "$(uname -m)" = x86_64 ] && pkg-config --exists xencontrol xenforeignmemory xenstore 2>/dev/null; then
		echo "$targets" | grep -q '^xen ' && pass "$name: xen listed (libxen-dev present)" ||
			fail "$name: xen" "libxen-dev is installed but --version says '$targets'"
	else
		echo "$targets" | grep -q 'no xen' && pass "$name: says it has no xen" ||
			fail "$name: no xen" "libxen-dev absent but --version says '$targets'"
	fi
done
exit 0
