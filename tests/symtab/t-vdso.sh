#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/symtab/t-vdso.sh — vDSO frames (issue 27 item 4): a program that
# calls clock_gettime in a loop spends most of its time in the kernel's
# [vdso] image, which has no file.  record must name those frames from
# the image in the target's memory (__vdso_clock_gettime, as perf prints
# it on x86-64; __kernel_clock_gettime on arm64), never open("[vdso]")
# (a file of that name in the working directory must not be read), and
# name a PC in it that no symbol covers [vdso] (the DSO, as perf report
# does), and read /proc/PID/maps a bounded number of times: at start and about once
# a second, not on every sample that lands in the vDSO.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../record/lib-record.sh"
need_ptrace vdso
command -v cc >/dev/null || { skip vdso "cc missing"; exit 0; }
grep -q '\[vdso\]' /proc/self/maps || { skip vdso "this kernel maps no vDSO"; exit 0; }
PROG="$TMP/clockloop"
cc -O2 -g -o "$PROG" "$UF_TOP/tests/data/symtab/clockloop.c" || { fail vdso "cc failed"; exit 0; }
cd "$TMP" || exit 1
printf 'not an ELF file\n' >"$TMP/[vdso]"  # what a relative open("[vdso]") would read

"$UF" -q -F 199 --inline --lines -o "$TMP/v.svg" --folded "$TMP/v.folded" -- "$PROG" 2 \
	2>"$TMP/err" || { fail vdso "record failed: $(head -3 "$TMP/err")"; exit 0; }

sym='__vdso_clock_gettime|__kernel_clock_gettime'
total=$(awk '{ s += $NF } END { print s + 0 }' "$TMP/v.folded")
# a leaf in the vDSO is its function, or, in code it exports no symbol
# for (6.x kernels run the clock code in such), the DSO: [vdso], as perf
# report names it, never [unknown]
in_vdso=$(grep -E "(;($sym)( [^;]*)?|;\[vdso\]) [0-9]+$" "$TMP/v.folded" | awk '{ s += $NF } END { print s + 0 }')
unknown=$(grep -E '\[unknown\] [0-9]+$' "$TMP/v.folded" | awk '{ s += $NF } END { print s + 0 }')
if [ "$total" -ge 50 ] && [ $((in_vdso * 100)) -ge $((total * 30)) ] && [ $((unknown * 100)) -le $((total * 5)) ] &&
	grep -Eq "$sym" "$TMP/v.svg"; then
	pass "vdso: $in_vdso of $total samples in the vDSO, named ($(grep -Eo "$sym" "$TMP/v.folded" | head -1)); $unknown [unknown] leaves"
else
	fail vdso "$in_vdso of $total samples named in the vDSO, $unknown [unknown]: $(sort -k2 -n "$TMP/v.folded" | tail -2 | tr '\n' '|')"
fi
# the call chain through it: read_clock -> clock_gettime (libc) -> vDSO
grep -Eq "read_clock[^;]*;clock_gettime[^;]*;($sym)" "$TMP/v.folded" &&
	pass "vdso: unwound through libc's clock_gettime into the vDSO" ||
	fail vdso_chain "no read_clock;clock_gettime;vDSO stack: $(head -3 "$TMP/v.folded" | tr '\n' '|')"

# the same run under strace (LeakSanitizer cannot run under ptrace: the
# run above checks leaks)
if ! command -v strace >/dev/null; then
	skip vdso_syscalls "strace missing: open(\"[vdso]\") and maps reads not checked"; exit 0
fi
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" strace -o "$TMP/strace" -e trace=open,openat \
	"$UF" -q -F 199 --inline --lines -o "$TMP/s.svg" -- "$PROG" 2 2>"$TMP/err" ||
	{ fail vdso_syscalls "record under strace failed: $(head -3 "$TMP/err")"; exit 0; }
n=$(grep -c '"\[vdso\]"' "$TMP/strace")
[ "$n" -eq 0 ] && pass "vdso: no open(\"[vdso]\")" || fail vdso_no_open "$n opens of \"[vdso]\""
# 2 s of sampling: start-up reads plus two per second (symbols, unwinder)
m=$(grep -c '/proc/[0-9]*/maps"' "$TMP/strace")
[ "$m" -le 12 ] && pass "vdso: /proc/PID/maps read $m times in 2 s" ||
	fail vdso_maps_reads "/proc/PID/maps read $m times in 2 s (bound 12)"
exit 0
