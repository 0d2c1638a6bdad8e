#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/browser/block-edit.py MODE IN.svg OUT.svg — rewrites the sections
after "end" in an SVG's packed uf-trie/1 block (fold/embed/embed.c, item
5), independently of uniprof-flame, for the tests that readers skip what
they do not know and still read what older writers wrote:

  unknown  adds two sections no reader knows: one right after "end"
           (before "seq"/"pos"), whose body looks like known headers, and
           one at the end, with arguments
  legacy   turns "pos LINES STRINGS" back into the untagged
           "loc STRINGS RECORDS" that writers before the tagging wrote
  add HEADER  adds one section with that header line right after "end",
           its LINES (the header's second field) body lines "x"

Usage: block-edit.py MODE [HEADER] IN.svg OUT.svg

Design: the packed block's tail ("end" and the sections) is verbatim text
after the count lines (fold/embed/embed-pack.c), so the edit inflates,
splices the tail, deflates and base64-encodes in 4096-character lines as
the writer does.  Exit 1 when the SVG has no packed block or (legacy)
no "pos" section."""
import base64
import re
import sys
import zlib


def varints_end(u, p, n):
    for _ in range(n):
        while u[p] & 128:
            p += 1
        p += 1
    return p


def tail_offset(u):
    """Offset of the "end" line that closes the node list."""
    nl = u.index(b'\n')
    h = u[:nl].split()
    nn, n = int(h[1]), int(h[2])
    p = nl + 1
    for _ in range(nn):
        p = u.index(b'\n', p) + 1
    p = varints_end(u, varints_end(u, p, n), n)
    for _ in range(n):
        p = u.index(b'\n', p) + 1
    assert u[p:p + 4] == b'end\n', u[p:p + 8]
    return p


def edit(mode, tail, header=None):
    if mode == 'add':
        lines = int(header.split(' ')[1])
        return tail[:4] + header.encode('ascii') + b'\n' + b'x\n' * lines + b'end\n' + tail[4:]
    if mode == 'unknown':
        first = b'zz-future 3\nseq 1\npos 9 9\nloc 1 1\nend\n'
        last = b'time 2 7 1\n0 0 1\n5 3 0\nend\n'
        return tail[:4] + first + tail[4:] + last
    m = re.search(rb'\npos (\d+) (\d+)\n', tail)
    if mode != 'legacy' or not m:
        return None
    lines, nstr = int(m.group(1)), int(m.group(2))
    return tail[:m.start()] + b'\nloc %d %d\n' % (nstr, lines - nstr) + tail[m.end():]


def main():
    mode = sys.argv[1]
    header = sys.argv[2] if mode == 'add' else None
    src, dst = sys.argv[-2:]
    s = open(src, 'rb').read().decode('latin1')
    m = re.search(r'(<metadata id="uniprof-flame-data"[^>]*data-encoding="pack-deflate-base64"[^>]*>)(.*?)(</metadata>)',
                  s, re.S)
    if not m:
        return 1
    u = zlib.decompress(base64.b64decode(re.sub(r'\s', '', m.group(2))))
    at = tail_offset(u)
    tail = edit(mode, u[at:], header)
    if tail is None:
        return 1
    b64 = base64.b64encode(zlib.compress(u[:at] + tail, 1)).decode('ascii')
    body = '\n' + '\n'.join(b64[k:k + 4096] for k in range(0, len(b64), 4096)) + '\n'
    open(dst, 'wb').write((s[:m.start(2)] + body + s[m.end(2):]).encode('latin1'))
    return 0


sys.exit(main())
