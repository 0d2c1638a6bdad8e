#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Files named by a profiled process (issue 20 item 2, issue 28 item 1;
# util/safe-open.c, used by symtab/procmap.c and unwind/space.c):
# a target that maps "lib.so (deleted)" and puts a FIFO at lib.so must
# not make `record` hang; it finishes within -T and the summary says
# which file could not be read.
source "$(dirname "$0")/../lib.sh"
if ! ${CC:-cc} -O2 -fno-omit-frame-pointer -o "$TMP/fifo-lib" "$UF_TOP/tests/sec/fifo-lib.c" 2> "$TMP/err"; then
	fail "fifo target" "cannot build fifo-lib: $(cat "$TMP/err")"
	exit 0
fi

# 1. record -p a running target (as whoever runs the tests: root reads the
#    mapped inode through /proc/PID/map_files, never the FIFO)
mkdir "$TMP/d1"
"$TMP/fifo-lib" "$TMP/d1" 12 > "$TMP/ready1" & target=$!
for _ in $(seq 100); do grep -qs ready "$TMP/ready1" && break; sleep 0.1; done
start=$SECONDS
timeout -s KILL 20 "$UF" record -p $target -T 2 -F 49 -o "$TMP/p.svg" 2> "$TMP/err1"; rc=$?
took=$((SECONDS - start))
kill $target 2> /dev/null; wait $target 2> /dev/null
if [ $rc -eq 0 ] && [ $took -le 10 ] && grep -q '<svg' "$TMP/p.svg"; then
	pass "record -p of a target with a FIFO at its mapped path: done in ${took} s (-T 2)"
else
	fail "record -p with a FIFO at a mapped path" "rc=$rc after ${took} s: $(tail -3 "$TMP/err1")"
fi

# 2. the same as an unprivileged user, spawned (no map_files: the path is
#    opened inside the target's root, found to be a FIFO and refused)
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	skip "unprivileged record with a FIFO at a mapped path" "needs root, setpriv and the user nobody"
else
	chmod 711 "$TMP"; mkdir "$TMP/d2"; chown nobody "$TMP/d2"
	cp "$UF" "$TMP/uf"; chmod 755 "$TMP/uf" "$TMP/fifo-lib"
	start=$SECONDS
	(cd "$TMP/d2" && timeout -s KILL 20 setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$TMP/uf" record -T 3 -F 49 -o "$TMP/d2/s.svg" -- "$TMP/fifo-lib" "$TMP/d2" 6 \
		> /dev/null 2> "$TMP/err2"); rc=$?
	took=$((SECONDS - start))
	if [ $rc -eq 0 ] && [ $took -le 10 ] &&
	   grep -q "^uniprof-flame: symbols: 1 mapped file could not be read, their frames are unknown (first: $TMP/d2/lib.so: not a regular file)$" "$TMP/err2"; then
		pass "unprivileged record: FIFO refused, done in ${took} s (-T 3), summary names it"
	else
		fail "unprivileged record with a FIFO" "rc=$rc after ${took} s: $(tail -5 "$TMP/err2")"
	fi
fi

# 2b. issue 28 item 1: an unprivileged target keeps mapping and unmapping
#     "DIR/lib.so (deleted)" with a symlink at DIR/lib.so to a character
#     device (here /dev/null's numbers, mknod'ed in a temp dir and watched
#     with inotify IN_OPEN): root recording it must never open the device
#     (think /dev/watchdog: an open arms it), and must finish within -T
if [ "$(id -u)" != 0 ] || ! command -v setpriv > /dev/null || ! id nobody > /dev/null 2>&1; then
	skip "target-named device" "needs root, setpriv and the user nobody"
elif ! ${CC:-cc} -O2 -fno-omit-frame-pointer -o "$TMP/map-dev" "$UF_TOP/tests/sec/map-dev.c" 2> "$TMP/err"; then
	fail "target-named device" "cannot build map-dev: $(cat "$TMP/err")"
else
	chmod 711 "$TMP"; chmod 755 "$TMP/map-dev"; mkdir "$TMP/d3" "$TMP/dev"; chown nobody "$TMP/d3"
	mknod -m 666 "$TMP/dev/watch" c 1 3
	setpriv --reuid=nobody --regid=nogroup --clear-groups "$TMP/map-dev" target "$TMP/d3" \
		"$TMP/dev/watch" 15 > "$TMP/ready3" 2> "$TMP/err3t" & target=$!
	for _ in $(seq 100); do grep -qs ready "$TMP/ready3" && break; sleep 0.1; done
	"$TMP/map-dev" watch "$TMP/dev/watch" 9 > "$TMP/opens" 2> "$TMP/watching" & watcher=$!
	for _ in $(seq 50); do grep -qs watching "$TMP/watching" && break; sleep 0.1; done
	start=$SECONDS
	timeout -s KILL 30 "${UF_REL:-$UF}" record -p $target -T 6 -F 99 -o "$TMP/dev.svg" 2> "$TMP/err3"; rc=$?
	took=$((SECONDS - start))
	wait $watcher
	kill $target 2> /dev/null; wait $target 2> /dev/null
	opens=$(cat "$TMP/opens")
	if [ $rc -eq 0 ] && [ "$opens" = 0 ] && [ $took -le 12 ] && grep -q '<svg' "$TMP/dev.svg"; then
		pass "record -p of a target racing map/unmap of a symlink to a device: device opened 0 times, done in ${took} s (-T 6)"
	else
		fail "target-named device" "device opened ${opens:-?} times, rc=$rc after ${took} s: $(tail -3 "$TMP/err3") $(cat "$TMP/err3t")"
	fi
fi

# 3. issue 20 item 5: an ELF symbol holding a newline and ';' (a guest's
#    or a process's names are the target's text) cannot forge folded lines
if ! ${CC:-cc} -O2 -no-pie -fno-omit-frame-pointer -o "$TMP/evil" "$UF_TOP/tests/sec/evil-symbol.c" 2> "$TMP/err" ||
   ! python3 - "$TMP/evil" <<'PY'
import sys
b = open(sys.argv[1], 'rb').read()
old = b'evil\\nforged;stk 5\0'
assert b.count(old) == 1, b.count(old)
open(sys.argv[1], 'wb').write(b.replace(old, b'evil\n_forged;stk 5\0'))
PY
then
	fail "symbol with a newline" "cannot build evil-symbol: $(cat "$TMP/err")"
else
	timeout -s KILL 30 "$UF" record -T 1 -F 99 --folded "$TMP/evil.folded" -- "$TMP/evil" 2 2> "$TMP/err3"; rc=$?
	"$UF" fold "$TMP/evil.folded" > "$TMP/evil.again" 2>> "$TMP/err3"
	if [ $rc -eq 0 ] && grep -q '^[^ ]*;evil\\x0a_forged\\x3bstk 5; [0-9]*$' "$TMP/evil.folded" &&
	   ! grep -q '^_forged' "$TMP/evil.folded" && cmp -s "$TMP/evil.folded" "$TMP/evil.again"; then
		pass "ELF symbol with newline and ';': escaped in the folded output, fold reads it back"
	else
		fail "symbol with a newline" "rc=$rc $(head -c 300 "$TMP/evil.folded") $(tail -2 "$TMP/err3")"
	fi
fi
