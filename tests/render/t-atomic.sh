#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/render/t-atomic.sh — outputs are atomic (util/outfile): when a run
# fails, the user's old output stays byte-identical, also for failures that
# come late (input read through a pipe after -o is chosen, all-zero counts,
# a missing --nameattr file, the filesystem filling up while the SVG is
# written).  A writer that truncates -o first would leave it empty.
# Each case: exit 2, the one-line error, the old file unchanged, no
# temporary file left beside it.
. "$(dirname "$0")/../lib.sh"
IN="$UF_TOP/tests/data/render/small.folded"
OLD="$TMP/old"
head -c 3000 /dev/urandom | od -An -tx1 > "$OLD"   # recognisable old content

# same_old NAME RC WANT_MSG FILE : FILE equals $OLD, rc 2, one error line
same_old() {
	local name=$1 rc=$2 msg=$3 f=$4 dir
	dir=$(dirname "$f")
	if [ "$rc" -ne 2 ]; then fail "$name" "rc=$rc, want 2: $(cat "$TMP/err")"; return; fi
	if ! cmp -s "$OLD" "$f"; then fail "$name" "old output changed ($(wc -c < "$f") bytes)"; return; fi
	if ! grep -q "^uniprof-flame: .*$msg" "$TMP/err" || [ "$(wc -l < "$TMP/err")" -ne 1 ]; then
		fail "$name" "error text: $(cat "$TMP/err")"; return
	fi
	if [ "$(ls -A "$dir" | grep -vc "^$(basename "$f")$")" -ne 0 ]; then
		fail "$name" "left behind: $(ls -A "$dir" | tr '\n' ' ')"; return
	fi
	pass "$name"
}

mkdir "$TMP/o"
O="$TMP/o/graph.svg"

# all-zero counts, read from a pipe (the output is chosen before any input)
cp "$OLD" "$O"
printf 'a;b 0\na;c 0\n' | "$UF" render -o "$O" - 2> "$TMP/err"; rc=$?
same_old "atomic: all-zero stdin input keeps the old svg" $rc "no stack counts found" "$O"

cp "$OLD" "$O"
printf 'a;b 0\na;c 0\n' > "$TMP/zero.folded"
"$UF" render "$TMP/zero.folded" -o "$O" 2> "$TMP/err"; rc=$?
same_old "atomic: all-zero input file keeps the old svg" $rc "no stack counts found" "$O"

# a missing --nameattr file
cp "$OLD" "$O"
"$UF" render --nameattr "$TMP/missing.tsv" "$IN" -o "$O" 2> "$TMP/err"; rc=$?
same_old "atomic: missing --nameattr keeps the old svg" $rc "missing.tsv: cannot open" "$O"

# fold -o with a pipe of lines that are no stacks
F="$TMP/o/graph.folded"; rm -f "$O"
cp "$OLD" "$F"
printf 'garbage\n' | "$UF" fold -o "$F" - 2> "$TMP/err"; rc=$?
same_old "atomic: fold -o keeps the old folded file" $rc "no valid stacks" "$F"

# File modes (issue 31 item 12): a written output gets 0666 & ~umask, like
# any file a shell or cp creates, whether -o names a new file or replaces an
# old one (the replacement is a new file: the old 0600 is not kept); an
# output created 0600 is unreadable to the web server or colleague it is for.
# mode_of UMASK CMD... : the mode of the file CMD writes under UMASK
for um in 022 002; do
	want=$(printf '%o' $((0666 & ~0$um)))
	rm -f "$TMP/m.svg" "$TMP/m.folded" "$TMP/m2.folded"
	(umask $um; "$UF" render "$IN" -o "$TMP/m.svg") 2>"$TMP/err"
	got=$(stat -c %a "$TMP/m.svg" 2>/dev/null)
	[ "$got" = "$want" ] && pass "mode: render -o new file is $want under umask $um" ||
		fail "mode: render -o new file under umask $um" "mode ${got:-missing}, want $want"
	(umask $um; "$UF" fold -o "$TMP/m.folded" "$IN") 2>"$TMP/err"
	got=$(stat -c %a "$TMP/m.folded" 2>/dev/null)
	[ "$got" = "$want" ] && pass "mode: fold -o new file is $want under umask $um" ||
		fail "mode: fold -o new file under umask $um" "mode ${got:-missing}, want $want"
	cp "$OLD" "$TMP/m.svg"; chmod 600 "$TMP/m.svg"
	(umask $um; "$UF" render "$IN" -o "$TMP/m.svg") 2>"$TMP/err"
	got=$(stat -c %a "$TMP/m.svg" 2>/dev/null)
	[ "$got" = "$want" ] && pass "mode: render -o over a 0600 file is $want under umask $um" ||
		fail "mode: render -o over a 0600 file under umask $um" "mode ${got:-missing}, want $want"
done

# A write error: a 64 KiB tmpfs holding the old SVG, a new SVG far larger.
if [ "$(id -u)" != 0 ]; then
	skip "atomic: full filesystem" "needs root to mount a small tmpfs"
	exit 0
fi
FS="$TMP/fs"; mkdir "$FS"
if ! mount -t tmpfs -o size=64k tmpfs "$FS" 2>/dev/null; then
	skip "atomic: full filesystem" "cannot mount a tmpfs here"
	exit 0
fi
trap 'umount "$FS" 2>/dev/null; rm -rf "$TMP"' EXIT
# 2000 distinct stacks: an SVG of about a megabyte
awk 'BEGIN { for (i = 0; i < 2000; i++) printf "main;work_%d;leaf_%d %d\n", i, i, i + 1 }' > "$TMP/big.folded"
cp "$OLD" "$FS/graph.svg"
"$UF" render "$TMP/big.folded" -o "$FS/graph.svg" 2> "$TMP/err"; rc=$?
same_old "atomic: write error on a full filesystem keeps the old svg" $rc "graph.svg: .*no space left on device" "$FS/graph.svg"
