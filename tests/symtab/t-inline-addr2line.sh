#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/symtab/t-inline-addr2line.sh — record --inline --lines against
# binutils' `addr2line -f -i`, sample by sample (issue 27 item 2).
#
# tests/data/symtab/deepinline.c is built here at -O2 -g (an always_inline
# chain four levels deep, reached through two call sites, with loops
# between the levels) and recorded with --raw, --inline and --lines.
# From the raw trace, every sample's addresses (return addresses as
# addr - 1, as record looks them up) are expanded by addr2line -f -i into
# the stack record should have written: per address the outermost
# function "NAME FILE:LINE", then each inlined level "NAME FILE:LINE_[i]",
# each level's line its own (the innermost's from the line table, each
# outer one the call site of the level inside it).  The stacks are
# compared from `main` down (the libc frames above it are not this
# program's); at least 99 % of the samples must be identical, and some
# expansion must be at least four inlined levels deep (and >= 100
# samples taken, so the share means something on a loaded machine).
# The same with clang (DWARF 5 without .debug_aranges) against
# llvm-symbolizer, whose GNU output style is addr2line's: binutils'
# addr2line drops inlined levels on clang's DWARF, llvm-symbolizer does
# not.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../record/lib-record.sh"
need_ptrace inline_addr2line
for t in cc addr2line readelf; do
	command -v $t >/dev/null || { skip inline_addr2line "$t missing"; exit 0; }
done
# compare NAME CC ORACLE...: build with CC, record, and compare every
# sample with ORACLE (addresses on stdin, addr2line -f -i -a's output)
compare() {
	local name=$1 ccmd=$2; shift 2
	PROG="$TMP/deepinline-$name"
	$ccmd -O2 -g -no-pie -o "$PROG" "$UF_TOP/tests/data/symtab/deepinline.c" 2>/dev/null ||
		{ fail "$name" "$ccmd failed"; return; }

	"$UF" -q -F 499 -T 1 --inline --lines --raw "$TMP/t.raw" --folded "$TMP/t.folded" -- "$PROG" 2 \
		2>"$TMP/err" || { fail "$name" "record failed: $(head -3 "$TMP/err")"; return; }

	# The program's code: its executable PT_LOAD segment.
	# (mawk has no strtonum: HEX is the helper every awk here uses)
	HEX='function hex(s,   i, v) { s = tolower(s); sub(/^0x/, "", s); v = 0; for (i = 1; i <= length(s); i++) v = v * 16 + index("0123456789abcdef", substr(s, i, 1)) - 1; return v }'
	read -r lo hi < <(readelf -lW "$PROG" | awk "$HEX"'
		$1 == "LOAD" && / R E / { printf "%.0f %.0f\n", hex($3), hex($3) + hex($6); exit }')
	# Every distinct lookup address of the program's code, one addr2line run.
	awk -v lo="$lo" -v hi="$hi" "$HEX"'BEGIN { first = 1 }
		/^#/ { next }
		/^0x/ { a = hex($0) - (first ? 0 : 1); first = 0
			if (a >= lo && a < hi) printf "0x%x\n", a; next }
		{ first = 1 }' "$TMP/t.raw" | sort -u >"$TMP/addrs"
	"$@" "$PROG" <"$TMP/addrs" >"$TMP/a2l"

	# addr2line's groups ("0xADDR", then NAME / FILE:LINE pairs innermost
	# first) become one expansion per address, outermost first; then each
	# raw sample becomes a folded stack from main down.
	awk -v lo="$lo" -v hi="$hi" "$HEX"'
		function base(p) { sub(/ \(discriminator [0-9]+\)$/, "", p); sub(/.*\//, "", p); return p }
		function flush(   s, i) {
			if (addr == "") return
			s = name[n - 1] " " pos[n - 1]
			for (i = n - 2; i >= 0; i--) s = s ";" name[i] " " pos[i] "_[i]"
			xp[addr] = s; if (n - 1 > deepest) deepest = n - 1
		}
		FNR == NR {
			if ($0 ~ /^0x/) { flush(); addr = hex($0); n = 0; half = 0; next }
			if (!half) { name[n] = $0; half = 1 } else { pos[n++] = base($0); half = 0 }
			next
		}
		FNR == 1 { flush(); first = 1; ns = 0 }
		/^#/ { next }
		/^0x/ { a = hex($0) - (first ? 0 : 1); first = 0; st[ns++] = a; next }
		/^[01]$/ {
			s = ""
			for (i = ns - 1; i >= 0; i--)
				if (st[i] >= lo && st[i] < hi) s = s (s == "" ? "" : ";") (st[i] in xp ? xp[st[i]] : "?")
			k = index(s, "main ")
			print (k == 1 || (k > 1 && substr(s, k - 1, 1) == ";") ? substr(s, k) : "[no main]")
			ns = 0; first = 1; next
		}
		END { print deepest > "/dev/stderr" }' "$TMP/a2l" "$TMP/t.raw" 2>"$TMP/deepest" |
		sort | uniq -c | awk '{ c = $1; sub(/^ *[0-9]+ /, ""); print $0 " " c }' >"$TMP/expect"

	# record's own stacks from main down, counts summed per stack (a
	# waiting sample's [runnable]/[blocked] pseudo-frame is no address:
	# a loaded machine queues the program now and then)
	awk '/^#/ { next } { c = $NF; s = $0; sub(/ [0-9]+$/, "", s); sub(/;\[(runnable|blocked|offline)\]$/, "", s); k = index(s, ";main ")
		s = k ? substr(s, k + 1) : "[no main]"; sum[s] += c }
		END { for (s in sum) print s " " sum[s] }' "$TMP/t.folded" >"$TMP/ours"
	read -r same total < <(awk '{ c = $NF; s = $0; sub(/ [0-9]+$/, "", s) }
		FNR == NR { want[s] += c; total += c; next }
		{ got[s] += c }
		END { for (s in want) if (s != "[no main]") same += (got[s] < want[s] ? got[s] : want[s])
		      print same + 0, total + 0 }' "$TMP/expect" "$TMP/ours")
	deep=$(cat "$TMP/deepest")
	if [ "$total" -ge 100 ] && [ $((same * 100)) -ge $((total * 99)) ] && [ "$deep" -ge 4 ]; then
		pass "$name: $same of $total samples expand as $1 does (deepest: $deep inlined levels)"
	else
		fail "$name" "$same of $total samples equal $1 (deepest $deep); first differences: $(
			sort "$TMP/expect" | head -3 | tr '\n' '|') vs $(sort "$TMP/ours" | head -3 | tr '\n' '|')"
	fi
}
compare inline_addr2line cc addr2line -f -i -a -e
# the --lines check below reads this run's output
cp "$TMP/t.folded" "$TMP/gcc.folded"
if command -v clang >/dev/null && command -v llvm-symbolizer >/dev/null; then
	compare inline_clang_llvm_symbolizer clang llvm-symbolizer --inlines --print-address --output-style=GNU --obj
else
	skip inline_clang_llvm_symbolizer "clang or llvm-symbolizer missing"
fi

# --lines: the levels of one frame carry their own lines, not one line
# repeated: stage_a's line is the call of mix4, mix4's is the call of mix3
a=$(awk '/mix4\(x\);/ { print NR; exit }' "$UF_TOP/tests/data/symtab/deepinline.c")
b=$(awk '/acc \+= mix3/ { print NR; exit }' "$UF_TOP/tests/data/symtab/deepinline.c")
# a sample may sit in mix4's loop control (another line of mix4): look for
# the call line among them, and for stage_a's line never repeated on mix4
want="stage_a deepinline.c:$a;mix4 deepinline.c:${b}_[i]"
if grep -qF "$want" "$TMP/gcc.folded" && ! grep -qF "stage_a deepinline.c:$a;mix4 deepinline.c:${a}_[i]" "$TMP/gcc.folded"; then
	pass "inline_addr2line: --lines gives each level its own line ($want)"
else
	fail inline_addr2line_lines "want $want among: $(grep -o 'stage_a deepinline.c:[0-9]*;mix4 deepinline.c:[0-9]*_\[i\]' "$TMP/gcc.folded" | sort | uniq -c | tr '\n' '|')"
fi
exit 0
