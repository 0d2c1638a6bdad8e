#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""scripts/svg-inflated.py SVG — prints the SVG with its embedded block
(<metadata id="uniprof-flame-data">, fold/embed/embed-pack.c) replaced by
what the block inflates to, so scripts/same-output.sh (SAME_INFLATE=1) can
hold a change of compressor to "only the block's deflated bytes moved".

Design: the block's base64 lines and the `<!-- -->` breaks render/svg.c puts
between its chunks are dropped, the rest decoded and inflated with Python's
zlib (independent of ours: it checks the zlib header and the Adler-32, so a
stream the browser's DecompressionStream("deflate") would refuse fails
here), and written back as one line of hex in place of the base64.  Every
other byte of the file is printed as it was.  Exit 1 when the block does
not inflate (the message names why), 0 otherwise; an SVG without a block
is printed unchanged."""
import base64
import re
import sys
import zlib

BLOCK = re.compile(rb'(<metadata id="uniprof-flame-data"[^>]*>\n)(.*?)(\n</metadata>)', re.S)


def inflated(m):
    b64 = re.sub(rb'\s', b'', m.group(2).replace(b'<!-- -->', b''))
    raw = zlib.decompress(base64.b64decode(b64, validate=True))
    return m.group(1) + b'inflated ' + raw.hex().encode() + m.group(3)


def main():
    data = open(sys.argv[1], 'rb').read()
    try:
        out = BLOCK.sub(inflated, data)
    except (zlib.error, ValueError) as e:
        sys.exit(f'svg-inflated: {sys.argv[1]}: the embedded block does not inflate: {e}')
    sys.stdout.buffer.write(out)


main()
