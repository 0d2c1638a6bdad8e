#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/embedded-text.py SVG — prints the uf-trie/1 text an SVG of ours
embeds, unpacking a packed block (fold/embed-pack.c: base64, zlib, the
depth-code and name columns) independently of uniprof-flame, so tests can
check what the file carries.  Exit 1 when the SVG has no block."""
import base64
import re
import sys
import zlib


def varints(u, p, n):
    out = []
    for _ in range(n):
        v = sh = 0
        while True:
            c = u[p]
            p += 1
            v |= (c & 127) << sh
            sh += 7
            if not c & 128:
                break
        out.append(v)
    return out, p


def unpack(u):
    nl = u.index(b'\n')
    h = u[:nl].split()
    nn, n = int(h[1]), int(h[2])
    p = nl + 1
    for _ in range(nn):
        p = u.index(b'\n', p) + 1
    head = u[:p]
    dc, p = varints(u, p, n)
    nc, p = varints(u, p, n)
    rest = u[p:].split(b'\n')
    lines, d = [], -1
    for i in range(n):
        d = d + 1 - dc[i]
        lines.append(b'%d %d %s' % (d, nc[i], rest[i]))
    return head + b'\n'.join(lines + rest[n:])


def main():
    s = open(sys.argv[1], 'rb').read().decode('latin1')
    m = re.search(r'<metadata id="uniprof-flame-data"([^>]*)>(.*?)</metadata>', s, re.S)
    if not m:
        return 1
    body = re.sub(r'<!--.*?-->', '', m.group(2), flags=re.S)
    if 'data-encoding="pack-deflate-base64"' in m.group(1):
        text = unpack(zlib.decompress(base64.b64decode(re.sub(r'\s', '', body))))
    else:
        text = body.strip('\n').encode('latin1') + b'\n'
    sys.stdout.buffer.write(text)
    return 0


sys.exit(main())
