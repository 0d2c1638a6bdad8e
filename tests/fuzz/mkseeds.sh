#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tests/fuzz/mkseeds.sh — (re)generates the seed corpora under
# tests/fuzz/corpus/ from real tools: our own renderer, the compilers,
# nm, the scripted gdbstub of tests/gdb.  Run from the top of the tree
# after `make all`; the seeds are committed, so this runs only when a
# format changes.  Seeds stay small (libFuzzer's max_len follows them).
set -eu
cd "$(dirname "$0")/../.."
UF=${UF:-build/uniprof-flame}
C=tests/fuzz/corpus
T=$(mktemp -d /tmp/uf-seeds.XXXXXX)
trap 'rm -rf "$T"' EXIT
mkdir -p $C/{folded,raw,nm,elf,svg,embed,embed-pack,svg-frames,gdb-packet,gdb-target,fp-walk,xen-walk,detect}

# ---- folded text
cp tests/data/render/small.folded $C/folded/small
cp tests/data/browser/hostile.folded $C/folded/hostile
cp tests/data/browser/known.folded $C/folded/known
printf 'main;a;b 1 2\nmain;c 3 0\n' >$C/folded/diff
printf 'main;work 0.25\nmain;work;leaf 1.5\nmain 2\n' >$C/folded/fractional
printf 'a;b;c 1\na;b 2\na;b;c;d_[k] 3\n[unknown];x 1\n' >$C/folded/annotated

# ---- uniprof raw traces
cp tests/data/symtab/uniprof.raw $C/raw/uniprof
printf '#tracing x\n\n0x1000\nf+0x10\n0x2000\n1\n\n0x0\n0\n\n' >$C/raw/mixed
# record --raw's #sample lines (time, state, thread), one malformed
printf '#tracing pid 1\n\n#sample t_ns=0 state=running thread=1\n0x1000\n1\n\n#sample t_ns=99 state=blocked thread=2\n0x2000\n0x1000\n1\n\n#sample t_ns=x state=zz\n0x3\n1\n\n' >$C/raw/samples

# ---- nm text and ELF images
cp tests/data/symtab/app.nm $C/nm/app
prog='static int f(int x){return x+1;} __attribute__((noinline)) int g(int x){return f(x)*2;} int main(int c,char**v){(void)v;return g(c);}'
cc -O1 -g0 -no-pie -o $T/exe -x c - <<<"$prog"
cc -O1 -g0 -fPIE -pie -o $T/pie -x c - <<<"$prog"
cc -O1 -g0 -shared -fPIC -o $T/lib.so -x c - <<<"$prog"
nm -n $T/exe >$C/nm/exe
nm -S $T/pie >$C/nm/pie-sized
cp $T/exe $C/elf/exe
cp $T/pie $C/elf/pie
strip -s -o $C/elf/lib-stripped $T/lib.so   # .dynsym only
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	aarch64-linux-gnu-gcc -O1 -g0 -c -o $C/elf/aarch64-object -x c - <<<"$prog"
fi

# ---- SVGs: ours (embedded data; script removed to keep seeds small),
# one without embedded data (rebuilt from drawn frames), a differential
# and an icicle
strip_script() { python3 -c 'import re,sys; s=open(sys.argv[1]).read(); print(re.sub(r"<script.*?</script>", "", s, flags=re.S), end="")' "$1"; }
$UF render -o $T/a.svg tests/data/render/small.folded
$UF render --embed none -o $T/b.svg tests/data/browser/known.folded
$UF diff -o $T/c.svg tests/data/browser/diff-before.folded tests/data/browser/diff-after.folded
$UF render --inverted -o $T/d.svg tests/data/browser/hostile.folded
strip_script $T/a.svg >$C/svg/ours
strip_script $T/b.svg >$C/svg/frames-only
strip_script $T/c.svg >$C/svg/diff
strip_script $T/d.svg >$C/svg/icicle

# ---- the embedded block alone (unpacked: fold/embed-pack.c), and drawn
# frames as "X Y W TITLE" lines; for embed-pack, each block's inflated
# payload (mode byte 0) and its base64 as the SVG carries it (mode 1)
mkdir -p $C/embed-pack
for f in ours diff icicle; do
	python3 - $C/svg/$f $C/embed/$f $C/embed-pack/$f <<'PY'
import base64, re, sys, zlib
s = open(sys.argv[1]).read()
m = re.search(r'<metadata id="uniprof-flame-data"[^>]*>(.*?)</metadata>', s, re.S)
b64 = re.sub(r'<!--.*?-->|\s', '', m.group(1), flags=re.S)
u = zlib.decompress(base64.b64decode(b64))
def varints(p, n):
    out = []
    for _ in range(n):
        v = sh = 0
        while True:
            c = u[p]; p += 1
            v |= (c & 127) << sh; sh += 7
            if not c & 128: break
        out.append(v)
    return out, p
nl = u.index(b'\n'); h = u[:nl].split(); nn, n = int(h[1]), int(h[2])
p = nl + 1
for _ in range(nn): p = u.index(b'\n', p) + 1
head = u[:p]
dc, p = varints(p, n); nc, p = varints(p, n)
lines, rest, prev = [], u[p:], -1
for i in range(n):
    e = rest.index(b'\n')
    d = prev + 1 - dc[i]; prev = d
    lines.append(b'%d %d ' % (d, nc[i]) + rest[:e + 1]); rest = rest[e + 1:]
open(sys.argv[2], 'wb').write(head + b''.join(lines) + rest)
open(sys.argv[3] + '-payload', 'wb').write(b'\0' + u)
open(sys.argv[3] + '-base64', 'wb').write(b'\1' + b64.encode())
PY
done
python3 - $C/svg/frames-only >$C/svg-frames/known <<'PY'
import re, sys, html
s = open(sys.argv[1]).read()
for g in re.finditer(r'<g[^>]*>\s*<title>(.*?)</title>\s*<rect([^>]*)>', s, re.S):
    a = dict(re.findall(r'(\w+)="([^"]*)"', g.group(2)))
    print(a.get("x"), a.get("y"), a.get("width"), html.unescape(g.group(1)))
PY

# ---- gdbstub sessions, as recorded from tests/gdb/fake-stub.py
cc -std=gnu11 -O1 -I. -D_GNU_SOURCE -o $T/gdb-sample tests/gdb/gdb-sample.c gdb-if/*.c util/err.c
for m in good plain noack rle; do
	python3 tests/gdb/fake-stub.py $m $T/stub.sock & sp=$!
	for _ in $(seq 100); do [ -S $T/stub.sock ] && break; sleep 0.05; done
	python3 tests/fuzz/record-stub.py $T/rec.sock $T/stub.sock $T/$m.stream & rp=$!
	for _ in $(seq 100); do [ -S $T/rec.sock ] && break; sleep 0.05; done
	timeout 20 $T/gdb-sample $T/rec.sock -F 0 -n 3 >/dev/null || true
	wait $rp; kill $sp 2>/dev/null || true; wait $sp 2>/dev/null || true; rm -f $T/stub.sock
	# byte 0: 4 rounds, fused allowed, window 4 KiB
	{ printf '\x3b'; cat $T/$m.stream; } >$C/gdb-target/$m
	head -c 4096 $T/$m.stream >$C/gdb-packet/$m
done

# ---- frame-pointer walks: a three-frame chain, at each base
python3 - $C <<'PY'
import struct, sys, os
C = sys.argv[1]
bases = [0x7fff00000000, 0xffff800000100000, (2**64 - 64 - 4096) & ~15, 0x1000]
for i, base in enumerate(bases):
    img = struct.pack('<8Q', base + 32, 0x401000, 0, 0, base + 48, 0x402000, 0, 0x403000)
    hdr = bytes([0x08 | i << 6]) + struct.pack('<3Q', 0x400000, 0, 0)
    open(os.path.join(C, 'fp-walk', 'chain-%d' % i), 'wb').write(hdr + img)
# a self-referencing record and a record pointing below sp
img = struct.pack('<2Q', bases[0], 0x401000)
open(os.path.join(C, 'fp-walk', 'self'), 'wb').write(bytes([0x3f]) + struct.pack('<3Q', 0x400000, 0, 0) + img)

# ---- Xen: guest pages.  Page 0 spare, 1 = PML4, 2 = PDPT, 3 = PD, 4 = PT,
# 5.. = stack pages; sp = fp = 0x5000 (PT[5] -> frame 5); a 2 MiB page at
# PD[1]; a loop PML4[1] -> PML4 itself.
P = 1
def page(entries):
    b = bytearray(4096)
    for idx, val in entries.items():
        b[idx * 8: idx * 8 + 8] = struct.pack('<Q', val)
    return bytes(b)
pages = [bytes(4096),
         page({0: 2 << 12 | P | 2, 1: 1 << 12 | P}),
         page({0: 3 << 12 | P | 2}),
         page({0: 4 << 12 | P | 2, 1: 0x80 | P}),
         page({5: 5 << 12 | P, 6: 6 << 12 | P, 7: 1 << 12 | P}),
         struct.pack('<4Q', 0x5020, 0x401000, 0, 0) + struct.pack('<2Q', 0x6000, 0x402000) + bytes(4096 - 48),
         struct.pack('<2Q', 0, 0x403000) + bytes(4096 - 16)]
for name, mode, windows in (('4level', 0, 1), ('4level-windows', 0, 3), ('paging-off', 3, 0)):
    hdr = struct.pack('<3Q', 0x400100, 0x5000, 0x5000)
    hdr += struct.pack('<Q', 1 | mode << 32 | 3 << 40 | windows << 48)
    open(os.path.join(C, 'xen-walk', name), 'wb').write(hdr + b''.join(pages))
PY
# ---- perf script text, from real `perf record` runs of the examples (when
# perf can record here); cut at a sample boundary to stay small
if command -v perf >/dev/null && [ -x build/examples/app-test-1 ]; then
	mkdir -p $C/perf
	for ex in app-test-1 app-threads; do
		if timeout 30 perf record -q -F 499 -g -o $T/$ex.data -- build/examples/$ex 1 >/dev/null 2>&1; then
			perf script -i $T/$ex.data 2>/dev/null | awk -v RS= -v ORS='\n\n' 'NR <= 12' >$T/$ex.txt
			{ printf '\0'; cat $T/$ex.txt; } >$C/perf/$ex
			{ printf '\x27'; cat $T/$ex.txt; } >$C/perf/$ex-opts   # --pid --tid --kernel --addrs
		fi
	done
fi

# ---- CFI: ELF files with .eh_frame (no frame pointers) and with only
# .debug_frame (as Unikraft builds), x86-64 and AArch64
mkdir -p $C/cfi-table $C/cfi-walk
cc -O2 -fomit-frame-pointer -g0 -o $C/cfi-table/x86-eh-frame -x c - <<<"$prog"
cc -O2 -fomit-frame-pointer -fno-asynchronous-unwind-tables -g -gz=none -c -o $C/cfi-table/x86-debug-frame -x c - <<<"$prog"
if command -v aarch64-linux-gnu-gcc >/dev/null; then
	aarch64-linux-gnu-gcc -O2 -g0 -c -o $C/cfi-table/aarch64-eh-frame -x c - <<<"$prog"
fi
python3 - $C <<'PY'
import struct, sys, os
C = sys.argv[1]
# mode fp/auto/cfi x arch; regs pc sp fp lr; 3 rows: CFA = SP+16 RA at -8;
# CFA = FP+16, RA at -8, FP at -16; an EXPR row; a stack with a chain
rows = [(16, 1, 16, 2, -1, 0), (16, 2, 16, 2, -1, 2 | 2 << 2), (16, 3, 0, 3, 0, 0)]
def row(delta, cfa, off, ra, ra8, rules):
    return struct.pack('<HBhbbB', delta - 1, cfa, off, ra8, -2, rules if rules else ra)
body = b''.join(row(*r) for r in rows)
stack = struct.pack('<8Q', 0x400004, 0x7ffd00000020, 0x400014, 0, 0x7ffd00000040, 0x400024, 0, 0)
for mode in range(3):
    hdr = bytes([mode | 8 << 3]) + struct.pack('<4Q', 0x400002, 0x7ffd00000000, 0x7ffd00000010, 0) + bytes([len(rows)])
    open(os.path.join(C, 'cfi-walk', 'chain-mode%d' % mode), 'wb').write(hdr + body + stack)
PY

# ---- hash floods (issue 28 item 4): names and perf frame lines that all
# collide under the fixed-seed hash used before util/hash.h was keyed.  Big
# on purpose (a quadratic table shows only at scale), so they sit with the
# crashes: replayed under the resource oracle, never copied into a fuzzing
# run's corpus, where libFuzzer's max_len would follow them
mkdir -p tests/fuzz/crashes/folded tests/fuzz/crashes/perf
python3 tests/sec/flood.py folded 40000 >tests/fuzz/crashes/folded/hash-flood-names
python3 tests/sec/flood.py perf 20000 >tests/fuzz/crashes/perf/hash-flood-lines

echo "seeds: $(find $C -type f | wc -l) files, $(du -sh $C | cut -f1)"
