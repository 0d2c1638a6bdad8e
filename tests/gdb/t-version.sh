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
	# the libraries line names each library's own version; elfutils' must be
	# the one pkg-config says the build used (a security advisory is checked
	# against this line: cli/linked.c)
	libs=$(echo "$out" | sed -n 's/^libraries: //p')
	echo "$libs" | grep -Eq '^elfutils [0-9.]+, zlib [0-9.]+, liblzma [0-9.]+, bzip2 [0-9.]+, libdeflate [0-9.]+, protobuf-c [0-9.]+$' &&
		pass "$name: libraries line" || fail "$name: libraries line" "'$libs'"
	dw=$(pkg-config --modversion libdw 2>/dev/null)
	[ -z "$dw" ] || { echo "$libs" | grep -q "^elfutils $dw," && pass "$name: elfutils $dw as pkg-config says" ||
		fail "$name: elfutils version" "pkg-config: $dw; --version: '$libs'"; }
	if [ "$(uname -m)" = x86_64 ] && pkg-config --exists xencontrol xenforeignmemory xenstore 2>/dev/null; then
		echo "$targets" | grep -q '^xen ' && pass "$name: xen listed (libxen-dev present)" ||
			fail "$name: xen" "libxen-dev is installed but --version says '$targets'"
	else
		echo "$targets" | grep -q 'no xen' && pass "$name: says it has no xen" ||
			fail "$name: no xen" "libxen-dev absent but --version says '$targets'"
	fi
done
exit 0
