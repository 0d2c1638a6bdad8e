#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/symtab/t-fold-symbols.sh — `uniprof-flame fold --symbols FILE RAW`:
# uniprof raw traces symbolized with an ELF file or an `nm -n` file, as the
# manual pipeline (nm -n; symbolize; stackcollapse) would, and the errors
# a user sees for bad symbol files.  The fixture is built here with cc.
. "$(dirname "$0")/../lib.sh"
if ! command -v cc >/dev/null || ! command -v nm >/dev/null || ! command -v strip >/dev/null; then
	skip fold_symbols "cc, nm or strip missing"; exit 0
fi
cc -O1 -o "$TMP/prog" "$UF_TOP/tests/data/symtab/prog.c" || { fail fold_symbols_build "cc failed"; exit 0; }
nm -n "$TMP/prog" >"$TMP/prog.nm"
nm -S "$TMP/prog" >"$TMP/prog.nmS"
addr() { awk -v n="$1" '$NF == n { print "0x" $1; exit }' "$TMP/prog.nm"; }
size() { awk -v n="$1" '$NF == n { print "0x" $2; exit }' "$TMP/prog.nmS"; }
hex() { printf '0x%x' "$1"; }
leaf=$(addr leaf) work=$(addr work) other=$(addr other) main=$(addr main)
wend=$(hex $((work + $(size work))))   # a return address just past work's end
# uniprof's layout: header, then stacks leaf first, "1" (or "0"), blank line
{
	printf '#unikernel stack tracer using test hypercall interface\n#tracing domid 1 on today\n\n'
	for i in 1 2 3; do printf '%s\n%s\n%s\n1\n\n' "$(hex $((leaf + 2)))" "$(hex $((work + 5)))" "$(hex $((main + 4)))"; done
	printf '%s\n%s\n%s\n1\n\n' "$(hex $((leaf + 1)))" "$(hex $((other + 3)))" "$(hex $((main + 9)))"
	printf '%s\n%s\n0\n\n' "$(hex $((leaf)))" "$wend"          # end-of-function return address
	printf '0x10\n%s\n1\n\n' "$(hex $((main + 1)))"              # unknown PC
	printf '1\n\n'                                              # empty stack (fp was 0)
} >"$TMP/trace.raw"
cat >"$TMP/expect" <<EOT
main;[unknown] 1
main;other;leaf 1
main;work;leaf 3
work;leaf 1
EOT

"$UF" fold --symbols "$TMP/prog" "$TMP/trace.raw" >"$TMP/elf.out" 2>"$TMP/elf.err"; rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/elf.out" "$TMP/expect"; then pass fold_symbols_elf
else fail fold_symbols_elf "rc=$rc: $(diff "$TMP/expect" "$TMP/elf.out" | head -5 | tr '\n' ' ')"; fi
grep -q "1 stack cut short" "$TMP/elf.err" && [ "$(wc -l <"$TMP/elf.err")" -eq 1 ] &&
	pass fold_symbols_warns_cut_stack || fail fold_symbols_warns_cut_stack "stderr: $(cat "$TMP/elf.err")"

"$UF" fold --symbols "$TMP/prog.nm" "$TMP/trace.raw" >"$TMP/nm.out" 2>/dev/null; rc=$?
if [ $rc -eq 0 ] && cmp -s "$TMP/nm.out" "$TMP/expect"; then pass fold_symbols_nm_file
else fail fold_symbols_nm_file "rc=$rc: $(diff "$TMP/expect" "$TMP/nm.out" | head -5 | tr '\n' ' ')"; fi

"$UF" fold --symbols "$TMP/prog" < "$TMP/trace.raw" >"$TMP/stdin.out" 2>/dev/null
cmp -s "$TMP/stdin.out" "$TMP/expect" && pass fold_symbols_stdin || fail fold_symbols_stdin "differs"

"$UF" fold --symbols "$TMP/prog" --addrs "$TMP/trace.raw" 2>/dev/null | grep -qx 'main;0x10 1' \
	&& pass fold_symbols_addrs || fail fold_symbols_addrs "no 'main;0x10 1' line"

# two inputs merge; counts add up
"$UF" fold --symbols "$TMP/prog" "$TMP/trace.raw" "$TMP/trace.raw" 2>/dev/null | grep -qx 'main;work;leaf 6' \
	&& pass fold_symbols_merges_inputs || fail fold_symbols_merges_inputs "no 'main;work;leaf 6'"

# the folded output renders
if "$UF" fold --symbols "$TMP/prog" "$TMP/trace.raw" 2>/dev/null | "$UF" render -o "$TMP/out.svg" - 2>/dev/null \
	&& grep -q 'main' "$TMP/out.svg"; then pass fold_symbols_renders
else fail fold_symbols_renders "render of the folded output failed"; fi

# errors: exit 2 and one clear line
expect_err() { # name want-text cmd...
	local name=$1 want=$2; shift 2
	"$@" >/dev/null 2>"$TMP/err"; local rc=$?
	if [ $rc -eq 2 ] && grep -q "^uniprof-flame: .*$want" "$TMP/err" && ! grep -q "ERROR: AddressSanitizer" "$TMP/err"
	then pass "$name"; else fail "$name" "rc=$rc: $(head -2 "$TMP/err" | tr '\n' ' ')"; fi
}
expect_err fold_symbols_missing_file "no such file or directory" "$UF" fold --symbols "$TMP/nope" "$TMP/trace.raw"
cp "$TMP/prog" "$TMP/stripped" && strip "$TMP/stripped"
expect_err fold_symbols_stripped "no function symbols" "$UF" fold --symbols "$TMP/stripped" "$TMP/trace.raw"
printf 'just some text\n' >"$TMP/text"
expect_err fold_symbols_not_symbols "no function symbols" "$UF" fold --symbols "$TMP/text" "$TMP/trace.raw"
head -c 3000 "$TMP/prog" >"$TMP/cut"
expect_err fold_symbols_truncated_elf "truncated ELF file" "$UF" fold --symbols "$TMP/cut" "$TMP/trace.raw"
printf '#only a header\n\n' >"$TMP/empty.raw"
expect_err fold_symbols_empty_trace "no valid stacks" "$UF" fold --symbols "$TMP/prog" "$TMP/empty.raw"
expect_err fold_symbols_missing_trace "cannot open: no such file or directory" "$UF" fold --symbols "$TMP/prog" "$TMP/nope.raw"

# golden: a hand-made trace in uniprof's layout (two vCPUs per round, a
# cut walk, an address outside every symbol, pre-symbolized frames, an
# empty stack) with an nm table; UF_BLESS=1 rewrites the expected file
data="$UF_TOP/tests/data/symtab"
"$UF" fold --symbols "$data/app.nm" "$data/uniprof.raw" >"$TMP/golden.out" 2>/dev/null
if [ "${UF_BLESS:-}" = 1 ]; then cp "$TMP/golden.out" "$data/expected/uniprof.folded"; fi
if cmp -s "$TMP/golden.out" "$data/expected/uniprof.folded"; then pass fold_symbols_golden
else fail fold_symbols_golden "$(diff "$data/expected/uniprof.folded" "$TMP/golden.out" | head -4 | tr '\n' ' ')"; fi
# stacks in reverse order (blank-line separated blocks): identical bytes
awk 'BEGIN { RS = ""; ORS = "\n\n" } { b[NR] = $0 } END { for (i = NR; i >= 1; i--) print b[i] }' \
	"$data/uniprof.raw" >"$TMP/reversed.raw"
"$UF" fold --symbols "$data/app.nm" "$TMP/reversed.raw" 2>/dev/null | cmp -s - "$TMP/golden.out" \
	&& pass fold_symbols_order_independent || fail fold_symbols_order_independent "output depends on stack order"

# A PIE program's raw trace (issue 27 item 6b): the trace holds runtime
# addresses, file address + a load bias it does not record.  From files,
# fold infers the bias (symtab_guess_bias: the page-aligned bias that puts
# addresses in _start or main and resolves the most) and says so in one
# line; from stdin (cannot be read twice) one warning line says why the
# frames are unknown and what to do.  Exit 0 both ways.  The non-PIE
# traces above (file addresses) warn nothing.
cc -O1 -fPIE -pie -o "$TMP/pie" "$UF_TOP/tests/data/symtab/prog.c" 2>/dev/null &&
	readelf -h "$TMP/pie" | grep -q 'DYN' || { fail fold_symbols_pie "cc -pie failed"; exit 0; }
nm -n "$TMP/pie" >"$TMP/pie.nm"
pleaf=$(awk '$NF == "leaf" { print "0x" $1; exit }' "$TMP/pie.nm")
pmain=$(awk '$NF == "main" { print "0x" $1; exit }' "$TMP/pie.nm")
bias=0x555555554000
{
	printf '#unikernel stack tracer: uniprof-flame\n#tracing pid 1\n\n'
	for i in 1 2 3; do printf '%s\n%s\n1\n\n' "$(hex $((bias + pleaf + 2)))" "$(hex $((bias + pmain + 4)))"; done
} >"$TMP/pie.raw"
"$UF" fold --symbols "$TMP/pie" "$TMP/pie.raw" >"$TMP/pie.out" 2>"$TMP/pie.err"; rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <"$TMP/pie.err")" -eq 1 ] &&
	grep -q "^uniprof-flame: warning: $TMP/pie: position-independent (PIE); load address 0x555555554000 inferred from the trace$" "$TMP/pie.err" &&
	[ "$(cat "$TMP/pie.out")" = "main;leaf 3" ]; then pass fold_symbols_pie_resolves
else fail fold_symbols_pie_resolves "rc=$rc: $(cat "$TMP/pie.err") / $(cat "$TMP/pie.out")"; fi
"$UF" fold --symbols "$TMP/pie" <"$TMP/pie.raw" >"$TMP/pie.out" 2>"$TMP/pie.err"; rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l <"$TMP/pie.err")" -eq 1 ] &&
	grep -q "^uniprof-flame: warning: $TMP/pie: 100 % of the addresses unresolved: the program is position-independent (PIE)" "$TMP/pie.err" &&
	grep -qx '\[unknown\];\[unknown\] 3' "$TMP/pie.out"; then pass fold_symbols_pie_stdin_warns
else fail fold_symbols_pie_stdin_warns "rc=$rc: $(cat "$TMP/pie.err") / $(cat "$TMP/pie.out")"; fi
"$UF" fold --symbols "$TMP/prog" "$TMP/trace.raw" 2>&1 >/dev/null | grep -q 'unresolved' &&
	fail fold_symbols_no_false_warning "warned on a trace that resolves" || pass fold_symbols_no_false_warning
# a trace of another program (a non-PIE table, nothing resolves): says so
sed 's/^0x\([0-9a-f]*\)$/0xdead\1/' "$TMP/trace.raw" >"$TMP/other.raw"
cc -O1 -no-pie -o "$TMP/nopie" "$UF_TOP/tests/data/symtab/prog.c" 2>/dev/null
"$UF" fold --symbols "$TMP/nopie" "$TMP/other.raw" 2>&1 >/dev/null | grep -q 'unresolved: is this the traced program?' &&
	pass fold_symbols_wrong_program_warns || fail fold_symbols_wrong_program_warns "no warning"

# A real recording of a PIE program: fold --symbols of its raw trace gives
# each of the program's functions the count the recording's own folded
# output gives it (libc's frames stay [unknown]: only the program's
# symbols are given).
. "$(dirname "$0")/../record/lib-record.sh"
need_ptrace fold_symbols_pie_recorded
cc -O2 -fPIE -pie -o "$TMP/dpie" "$UF_TOP/tests/data/symtab/deepinline.c" ||
	{ fail fold_symbols_pie_recorded "cc failed"; exit 0; }
"$UF" -q -F 199 --raw "$TMP/rec.raw" --folded "$TMP/rec.folded" -- "$TMP/dpie" 1 2>/dev/null
"$UF" fold --symbols "$TMP/dpie" "$TMP/rec.raw" >"$TMP/rec.back" 2>"$TMP/rec.err"
ok=1
for fn in main pipeline stage_a stage_b; do
	a=$(awk -v f=";$fn" '{ s0 = $0; sub(/ [0-9]+$/, "", s0) } index(";" s0 ";", f ";") { s += $NF } END { print s + 0 }' "$TMP/rec.folded")
	b=$(awk -v f=";$fn" '{ s0 = $0; sub(/ [0-9]+$/, "", s0) } index(";" s0 ";", f ";") { s += $NF } END { print s + 0 }' "$TMP/rec.back")
	[ "$a" -eq "$b" ] || { ok=0; fail fold_symbols_pie_recorded "$fn: recorded $a, read back $b ($(cat "$TMP/rec.err"))"; }
done
[ $ok = 1 ] && [ "$(awk '/;main/ { s += $NF } END { print s + 0 }' "$TMP/rec.back")" -gt 0 ] &&
	pass "fold_symbols_pie_recorded: every program function's count equals the recording's"
exit 0
