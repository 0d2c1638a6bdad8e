#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Hash-flood inputs (issue 28 item 4): names built to collide in every bit
# under the fixed-seed hash uniprof-flame used before its key became
# random per process (util/hash.h).  Two attacker-chosen aligned words
# suffice: the state after word v1 is known, so word v2 = Y ^ state gives
# one state for all names.  Under a keyed hash they land anywhere.
#   flood.py folded N   -> N one-frame stacks "NAME 1", colliding
#   flood.py random N   -> N one-frame stacks of random names (control)
#   flood.py perf N     -> perf script text: N distinct colliding frame lines
import os, random, struct, sys

M = (1 << 64) - 1
K0, K1 = 0x243f6a8885a308d3, 0xa0761d6478bd642f
BAD = set(b'\n\r;\\ \t\0()+[]:')

def mix(a, b):
    r = a * b
    return (r & M) ^ (r >> 64)

def colliding(n, start, v1_of):
    """n pairs (v1, v2) whose state after both words is mix(Y, K1)."""
    out, i, Y = [], 0, 0x5a5a5a5a5a5a5a5a
    while len(out) < n:
        v1 = v1_of(i); i += 1
        h = mix(start ^ int.from_bytes(v1, 'little'), K1)
        v2 = (Y ^ h).to_bytes(8, 'little')
        if not BAD & set(v2):
            out.append(v1 + v2)
    return out

def main():
    kind, n = sys.argv[1], int(sys.argv[2])
    w = sys.stdout.buffer
    if kind == 'random':
        rnd = random.Random(28)
        for i in range(n):
            w.write(b'f%07x%08x 1\n' % (i, rnd.getrandbits(32)))
    elif kind == 'folded':   # old name hash: state starts at K0
        for name in colliding(n, K0, lambda i: b'f%07x' % i):
            w.write(name + b' 1\n')
    elif kind == 'perf':     # old uf_hash_bytes: K0 ^ len; line "\t1000 xx" v1 v2 " (a)"
        L = 8 + 16 + 4
        h8 = mix((K0 ^ L) ^ int.from_bytes(b'\t1000 xx', 'little'), K1)
        for k, sym in enumerate(colliding(n, h8, lambda i: b'g%07x' % i)):
            if k % 100 == 0:
                w.write(b'%sprog 1 1.0: cycles:\n' % (b'\n' if k else b''))
            w.write(b'\t1000 xx' + sym + b' (a)\n')
        w.write(b'\n')

main()
