#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Every error is one line, "uniprof-flame: <what>: <why>" with no full stop
# and no second line (no "Try ..." hint, no getopt message naming the
# binary's path), and the exit status says its class: 1 usage, 2 bad input,
# 3 target, 4 out of memory.  One case per error path of the CLI.
source "$(dirname "$0")/../lib.sh"
F="$TMP/in.folded"
printf 'main;a 3\nmain;b 1\n' > "$F"
printf 'garbage\n' > "$TMP/garbage.folded"
echo '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>' > "$TMP/empty.svg"
O="$TMP/out.svg"

# expect CODE PATTERN ARGS...: exit CODE, stderr one line matching PATTERN
expect() {
	local code=$1 pat=$2; shift 2
	local name="$code: uniprof-flame $*"
	(cd "$TMP" && "$UF" "$@") >/dev/null 2>"$TMP/err" </dev/null; local rc=$?
	local n; n=$(wc -l < "$TMP/err")
	local line; line=$(head -1 "$TMP/err")
	if [ "$rc" != "$code" ]; then
		fail "$name" "exit $rc, want $code: $(head -3 "$TMP/err")"
	elif [ "$n" != 1 ]; then
		fail "$name" "$n lines on stderr: $(tr '\n' '|' < "$TMP/err")"
	elif ! [[ "$line" =~ ^uniprof-flame:\ [^\ ].*:\ [^\ ].*[^.]$ ]]; then
		fail "$name" "not 'uniprof-flame: <what>: <why>': $line"
	elif [[ "$line" == *"$UF"* ]] || ! grep -qE -- "$pat" "$TMP/err"; then
		fail "$name" "want /$pat/: $line"
	else
		pass "$name"
	fi
}

# usage errors (1): options
expect 1 "'--bogus': unknown option \(see 'uniprof-flame render --help'\)" render --bogus "$F"
expect 1 "'-bogus': unknown option" render -bogus "$F"
expect 1 "'--width': 'abc' is not a number" render --width abc "$F"
expect 1 "'--width': 'abc'" render -width abc "$F"
expect 1 "'--minwidth': '-1'" render --minwidth -1 "$F"
expect 1 "'--colors': unknown palette 'nosuch'" render --colors nosuch "$F"
expect 1 "'--bgcolors': 'pink'" render --bgcolors pink "$F"
expect 1 "'--embed': 'x'" render --embed=x "$F"
expect 1 "'--embed-budget': '1'" render --embed-budget 1 "$F"
expect 1 "'--encoding': 'a\"b' is not an encoding name" render --encoding 'a"b' "$F"
expect 1 "'--hash': takes no value" render --hash=1 "$F"
expect 1 "'--title': needs a value" render "$F" --title
expect 1 "'-o': needs a value" render "$F" -o
expect 1 "'-t': ambiguous option \(--title, --total" render -t x "$F"
expect 1 "'--normalize': only applies with --diff" fold --normalize "$F"
expect 1 "'--addrs': only applies with --symbols or perf script input" fold --raw --addrs "$F"
expect 1 "'--format': unknown format 'x'" render --format x "$F"
expect 1 "'--diff': takes two inputs" fold --diff "$F"
expect 1 "'--flamechart': cannot be combined with --diff" fold --flamechart --diff "$F" "$F"
expect 1 "'--bogus': unknown option \(see 'uniprof-flame fold --help'\)" fold --bogus
expect 1 "diff: takes two inputs, BEFORE and AFTER \(got 1\)" diff "$F"
expect 1 "'--flamechart': cannot be combined with diff" diff --flamechart "$F" "$F"
expect 1 "'--delta': 'x'" diff --delta=x "$F" "$F"
expect 1 "'--min-delta': '200'" diff --min-delta 200 "$F" "$F"
expect 1 "'--palette': 'x'" diff --palette x "$F" "$F"
expect 1 "'--bogus': unknown option \(see 'uniprof-flame record --help'\)" record --bogus
expect 1 "'--bogus': unknown option \(see 'uniprof-flame record --help'\)" --bogus
expect 1 "'-z': unknown option" record -p 1 -qz
expect 1 "record: name one target" record -o "$O"
expect 1 "record: name one target" -p 1 -o "$O" -- true
expect 1 "record: no output" record -p 1
expect 1 "'-p': 'abc' is not a number" record -p abc -o "$O"
expect 1 "'-F': '0' is not a number" -F 0 -p 1 -o "$O"
expect 1 "'-T': 'x' is not a number" -T x -p 1 -o "$O"
expect 1 "'--max-depth': '9000' is not a number" --max-depth 9000 -p 1 -o "$O"
expect 1 "'--gdb': needs -x" --gdb :1 -o "$O"
expect 1 "'--destroy': only applies to a domain created with -c" --destroy -p 1 -o "$O"
expect 1 "'stray': unexpected argument" record -p 1 -o "$O" stray
expect 1 "'bogus': not a command" bogus
expect 1 "no command: name one" 
# bad input (2)
expect 2 "/nonexistent/x.folded: cannot open" render /nonexistent/x.folded
expect 2 "garbage.folded: no valid stacks \(1 invalid line, the first at garbage.folded:1\)$" render garbage.folded -o "$O"
expect 2 "/nonexistent/dir/x.svg: cannot create output" render "$F" -o /nonexistent/dir/x.svg
expect 2 "empty.svg: SVG has no flame graph frames" fold empty.svg
expect 2 "/etc/passwd: not an ELF file" -x /etc/passwd -o "$O" -- true
expect 2 "/nonexistent/d/x.svg: cannot write here" -o /nonexistent/d/x.svg -- true
# target errors (3)
expect 3 "pid 4194000: no such process" -p 4194000 -o "$O"
expect 3 "/nonexistent/prog: cannot run" -o "$O" -- /nonexistent/prog
expect 3 "gdb stub 'localhost:1': cannot connect" --gdb localhost:1 --addrs -o "$O"
# out of memory (4), not bad input: the release binary (ASan reserves more
# address space than any limit) under `ulimit -v`, on 300k distinct call
# paths (~150 MB of trie and SVG); the same limit renders a small input,
# and bad input under it is still bad input (2)
python3 -c '
import sys
for i in range(300000):
    sys.stdout.write("main;f%d;g%d;h%d 1\n" % (i, i, i))' > "$TMP/big.folded"
oom() {
	local name=$1 want=$2 pat=$3; shift 3
	(ulimit -v 100000; cd "$TMP" && "$@") >/dev/null 2>"$TMP/err"; local rc=$?
	local said=0 # stderr as wanted: empty for "", else one line matching
	if [ -z "$pat" ]; then [ -s "$TMP/err" ] || said=1
	elif [ "$(wc -l < "$TMP/err")" = 1 ] && grep -qE -- "$pat" "$TMP/err"; then said=1; fi
	if [ "$rc" = "$want" ] && [ "$said" = 1 ]; then
		pass "$want: $name"
	else
		fail "$want: $name" "exit $rc, want $want and /$pat/: $(head -3 "$TMP/err" | tr '\n' '|')"
	fi
}
oom "render of a big pipe under ulimit -v 100000" 4 "^uniprof-flame: <stdin>: out of memory$" \
	sh -c "cat big.folded | '$UF_REL' render -o oom.svg"
oom "render of a big file under ulimit -v 100000" 4 "^uniprof-flame: big.folded: out of memory$" \
	"$UF_REL" render big.folded -o oom.svg
oom "fold of a big file under ulimit -v 100000" 4 "^uniprof-flame: big.folded: out of memory$" \
	"$UF_REL" fold big.folded -o oom.folded
oom "render of a small input under ulimit -v 100000" 0 "" "$UF_REL" render in.folded -o small.svg
oom "bad input under ulimit -v 100000" 2 "garbage.folded: no valid stacks" \
	"$UF_REL" render garbage.folded -o bad.svg
if [ -e "$TMP/oom.svg" ] || [ -e "$TMP/oom.folded" ]; then
	fail "4: no output left behind" "$(ls "$TMP"/oom.*)"
else
	pass "4: no output left behind"
fi
