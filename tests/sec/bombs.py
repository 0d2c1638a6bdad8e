#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Inputs that expand (issue 28 items 2, 3, 5), written to DIR:
#   bomb.folded.gz  240 MiB of "a;b 1" lines in 0.37 MB of gzip
#   bomb.svg.gz     an SVG with a 300 MiB comment in 0.3 MB of gzip
#   tree.svg        a flamegraph.pl-style SVG: a chain of CHAIN frames
#                   ending in a binary tree of height 13 (8192 leaves)
# and, from SMALL (an SVG uniprof-flame wrote), pk-bomb.svg: its packed
# block replaced by a header and 256 MiB of zeros deflated (0.25 MB).
import base64, re, sys, zlib

d, small = sys.argv[1], sys.argv[2]
z = zlib.compressobj(9, zlib.DEFLATED, 31)
chunk = b'a;b 1\n' * (1 << 20)
open(d + '/bomb.folded.gz', 'wb').write(b''.join(z.compress(chunk) for _ in range(40)) + z.flush())

z = zlib.compressobj(9, zlib.DEFLATED, 31)
parts = [z.compress(b'<svg xmlns="http://www.w3.org/2000/svg"><!--\n')]
parts += [z.compress(b'x' * (1 << 20)) for _ in range(300)]
parts += [z.compress(b'-->\n</svg>\n'), z.flush()]
open(d + '/bomb.svg.gz', 'wb').write(b''.join(parts))

s = open(small).read()
m = re.search(r'(<metadata id="uniprof-flame-data"[^>]*>)(.*?)(</metadata>)', s, re.S)
z = zlib.compressobj(9)
bomb = z.compress(b'uf-trie/1 1 1 0 0\n\n') + b''.join(z.compress(bytes(1 << 24)) for _ in range(16)) + z.flush()
open(d + '/pk-bomb.svg', 'w').write(s[:m.start(1)] + m.group(1) + base64.b64encode(bomb).decode() +
                                    m.group(3) + s[m.end(3):])

CHAIN, H, W = 1500, 13, 1 << 13
out = ['<svg version="1.1" width="1200" height="100" xmlns="http://www.w3.org/2000/svg">\n<g id="frames">\n']
def frame(name, n, x, depth):
    out.append('<g>\n<title>%s (%d samples, %.2f%%)</title><rect x="%.1f" y="%d" width="%.1f" '
               'height="15.0" fill="rgb(200,100,50)" rx="2" ry="2" />\n</g>\n'
               % (name, n, 100.0 * n / W, x, 16 * depth, n))
for d_ in range(CHAIN):
    frame('c%d' % d_, W, 0, d_)
for h in range(1, H + 1):
    n = W >> h
    for k in range(1 << h):
        frame('t%d' % (k & 1), n, k * n, CHAIN - 1 + h)
out.append('</g>\n</svg>\n')
open(d + '/tree.svg', 'w').write(''.join(out))
