#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Outputs written as root into directories other users can write (issue
# 20 item 1, issue 28 item 7; util/outfile.c): a symlink at the destination is replaced,
# never followed; devices and directories are refused; and the race of an
# unprivileged user swapping the path while root writes never lands a
# write on the victim file.  Every output goes through util/outfile:
# render/diff -o, fold -o, record --folded/--raw, --cp's palette.map.
source "$(dirname "$0")/../lib.sh"
D="$UF_TOP/tests/data/render"
IN="$D/small.folded"
"$UF" fold "$IN" > "$TMP/in.folded"

# 1. no race: a symlink to a file, a block device, a directory, a FIFO
W="$TMP/w"; mkdir "$W"
echo "victim data" > "$TMP/victim"; chmod 600 "$TMP/victim"
ln -s "$TMP/victim" "$W/out.svg"
"$UF" render "$IN" -o "$W/out.svg" 2> "$TMP/err"; rc=$?
if [ $rc -eq 0 ] && [ "$(cat "$TMP/victim")" = "victim data" ] && [ ! -L "$W/out.svg" ] &&
   grep -q '<svg' "$W/out.svg"; then
	pass "symlink at -o: replaced by the output, its target untouched"
else
	fail "symlink at -o" "rc=$rc victim=$(head -c 40 "$TMP/victim") $(cat "$TMP/err")"
fi
for opt in fold:-o render:--cp; do
	rm -f "$W/l"; ln -s "$TMP/victim" "$W/l"
	case $opt in
	fold:-o) "$UF" fold "$IN" -o "$W/l" 2> "$TMP/err"; rc=$? ;;
	render:--cp) "$UF" render --cp="$W/l" "$IN" -o "$TMP/cp.svg" 2> "$TMP/err"; rc=$? ;;
	esac
	[ $rc -eq 0 ] && [ "$(cat "$TMP/victim")" = "victim data" ] && [ -f "$W/l" ] && [ ! -L "$W/l" ] &&
		pass "symlink at $opt: replaced, not followed" ||
		fail "symlink at $opt" "rc=$rc $(cat "$TMP/err")"
done
if [ "$(id -u)" = 0 ]; then
	mknod "$TMP/blk" b 7 250   # a loop device number nothing uses: never opened anyway
	"$UF" render "$IN" -o "$TMP/blk" 2> "$TMP/err"; rc=$?
	[ $rc -eq 2 ] && grep -q "^uniprof-flame: $TMP/blk: cannot write output: is a block device; refusing to write onto it$" "$TMP/err" &&
		pass "block device as -o: refused, exit 2" || fail "block device" "rc=$rc $(cat "$TMP/err")"
	ln -s "$TMP/blk" "$W/blk.svg"
	"$UF" render "$IN" -o "$W/blk.svg" 2> "$TMP/err"; rc=$?
	[ $rc -eq 0 ] && [ -f "$W/blk.svg" ] && [ -b "$TMP/blk" ] &&
		pass "symlink to a block device: the link is replaced" || fail "symlink to block device" "rc=$rc $(cat "$TMP/err")"
else
	skip "block device as -o" "not root (mknod needs root)"
	skip "symlink to a block device" "not root (mknod needs root)"
fi
mkdir "$W/dir.svg"
"$UF" render "$IN" -o "$W/dir.svg" 2> "$TMP/err"; rc=$?
[ $rc -eq 2 ] && grep -q "cannot write output: is a directory$" "$TMP/err" &&
	pass "directory as -o: exit 2" || fail "directory as -o" "rc=$rc $(cat "$TMP/err")"
mkfifo "$W/fifo"
cat "$W/fifo" > "$TMP/fifo.out" & reader=$!
timeout 20 "$UF" fold "$IN" -o "$W/fifo"; rc=$?
wait $reader
[ $rc -eq 0 ] && [ -p "$W/fifo" ] && cmp -s "$TMP/fifo.out" "$TMP/in.folded" &&
	pass "FIFO as -o: written in place" || fail "FIFO as -o" "rc=$rc"
"$UF" fold "$IN" -o /dev/null && pass "/dev/null as -o" || fail "/dev/null as -o" "rc=$?"
"$UF" fold "$IN" -o /dev/stdout > "$TMP/stdout.out" && cmp -s "$TMP/stdout.out" "$TMP/in.folded" &&
	pass "/dev/stdout redirected to a file: written through the descriptor" || fail "/dev/stdout" ""

# 1b. issue 28 item 7: another user's FIFO or device at root's -o path (a
#     sticky /tmp: fs.protected_fifos does not cover our open) is refused
#     with one line, exit 2, before anything could block on it; the
#     planted reader gets nothing
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	skip "another user's FIFO at -o" "needs root, setpriv and the user nobody"
	skip "another user's device at -o" "needs root, setpriv and the user nobody"
else
	chmod 711 "$TMP"
	S="$TMP/sticky"; mkdir "$S"; chmod 1777 "$S"
	setpriv --reuid=nobody --regid=nogroup --clear-groups mkfifo -m 666 "$S/out.svg"
	setpriv --reuid=nobody --regid=nogroup --clear-groups timeout 3 cat "$S/out.svg" > "$TMP/stolen" &
	thief=$!
	sleep 0.2
	timeout -s KILL 10 "$UF" render "$IN" -o "$S/out.svg" 2> "$TMP/err"; rc=$?
	wait $thief 2> /dev/null
	read_bytes=$(wc -c < "$TMP/stolen")
	nobody_uid=$(id -u nobody)
	[ $rc -eq 2 ] && [ "$read_bytes" = 0 ] && [ "$(wc -l < "$TMP/err")" = 1 ] &&
	grep -q "^uniprof-flame: $S/out.svg: cannot write output: is a FIFO owned by another user (uid $nobody_uid); refusing to write into it$" "$TMP/err" &&
		pass "another user's FIFO at -o (reader waiting): refused, exit 2, nothing written" ||
		fail "another user's FIFO at -o" "rc=$rc read=$read_bytes $(cat "$TMP/err")"
	rm -f "$S/out.svg"
	setpriv --reuid=nobody --regid=nogroup --clear-groups mkfifo -m 666 "$S/noreader.svg"
	start_ms=$(date +%s%3N)
	timeout -s KILL 10 "$UF" fold "$IN" -o "$S/noreader.svg" 2> "$TMP/err"; rc=$?
	took=$(( $(date +%s%3N) - start_ms ))
	[ $rc -eq 2 ] && [ $took -lt 2000 ] && grep -q "is a FIFO owned by another user" "$TMP/err" &&
		pass "another user's FIFO at -o (no reader): refused in ${took} ms, no block" ||
		fail "another user's FIFO, no reader" "rc=$rc after ${took} ms $(cat "$TMP/err")"
	mknod "$S/dev.svg" c 1 7; chown nobody "$S/dev.svg"    # /dev/full, nobody's
	"$UF" render "$IN" -o "$S/dev.svg" 2> "$TMP/err"; rc=$?
	[ $rc -eq 2 ] && [ -c "$S/dev.svg" ] &&
	grep -q "cannot write output: is a device owned by another user (uid $nobody_uid); refusing to write into it$" "$TMP/err" &&
		pass "another user's device at -o: refused, exit 2" ||
		fail "another user's device at -o" "rc=$rc $(cat "$TMP/err")"
	mkfifo "$S/mine.fifo"
	cat "$S/mine.fifo" > "$TMP/mine.out" & reader=$!
	timeout 20 "$UF" fold "$IN" -o "$S/mine.fifo"; rc=$?
	wait $reader
	[ $rc -eq 0 ] && cmp -s "$TMP/mine.out" "$TMP/in.folded" &&
		pass "own FIFO in a sticky directory: written in place" || fail "own FIFO in a sticky directory" "rc=$rc"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$UF" fold "$IN" -o /dev/null 2> "$TMP/err" &&
		pass "/dev/null as -o for an unprivileged user (root's device)" || fail "/dev/null as -o, unprivileged" "$(cat "$TMP/err")"
fi

# 2. the race: an unprivileged user swaps out.svg between a directory and
#    a symlink to a root-owned 0600 file while root writes there
if [ "$(id -u)" != 0 ]; then
	skip "output race" "not root (the race needs root writing and another user swapping)"
elif ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	skip "output race" "needs setpriv (util-linux) and the user nobody"
elif ! ${CC:-cc} -O2 -o "$TMP/swap-race" "$UF_TOP/tests/sec/swap-race.c" 2> "$TMP/err"; then
	fail "output race" "cannot build swap-race: $(cat "$TMP/err")"
else
	chmod 711 "$TMP"
	R="$TMP/race"; mkdir "$R"; chmod 777 "$R"        # world-writable, not sticky
	head -c 4096 /dev/urandom > "$TMP/secret"; chmod 600 "$TMP/secret"
	cp -p "$TMP/secret" "$TMP/secret.orig"
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/swap-race" "$R" out.svg \
		"$TMP/secret" 12 > "$TMP/swaps" 2> "$TMP/swap.err" & swapper=$!
	runs=0 bad_rc=0 start=$SECONDS
	while [ $((SECONDS - start)) -lt 10 ] && [ $runs -lt 300 ]; do
		"${UF_REL:-$UF_TOP/build/uniprof-flame}" render "$IN" -o "$R/out.svg" 2> "$TMP/race.err"; rc=$?
		[ $rc -eq 0 ] || [ $rc -eq 2 ] || bad_rc=$rc
		runs=$((runs + 1))
		cmp -s "$TMP/secret" "$TMP/secret.orig" || break
	done
	wait $swapper
	swaps=$(cat "$TMP/swaps")
	if cmp -s "$TMP/secret" "$TMP/secret.orig" && [ "$(stat -c %a "$TMP/secret")" = 600 ] &&
	   [ "$bad_rc" = 0 ] && [ "${swaps:-0}" -gt 1000 ]; then
		pass "output race: $runs root runs against $swaps swaps, victim never written"
	else
		fail "output race" "victim changed after $runs runs ($swaps swaps, rc $bad_rc) $(cat "$TMP/swap.err")"
	fi
fi
