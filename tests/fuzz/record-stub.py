#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/fuzz/record-stub.py — records what a gdbstub says, for seeds of
the gdb-target fuzz harness (tests/fuzz/fuzz-gdb-target.c).

    record-stub.py LISTEN_PATH STUB_PATH OUT_FILE

Serves one connection on the Unix socket LISTEN_PATH, forwards it both
ways to the stub at STUB_PATH and writes every byte the stub sent to
OUT_FILE when either side closes.
"""
import os
import select
import socket
import sys

lpath, spath, out = sys.argv[1:4]
if os.path.exists(lpath):
    os.unlink(lpath)
ls = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
ls.bind(lpath)
ls.listen(1)
client, _ = ls.accept()
stub = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
stub.connect(spath)
said = bytearray()
open_ = True
while open_:
    r, _, _ = select.select([client, stub], [], [], 10)
    if not r:
        break
    for s in r:
        data = s.recv(65536)
        if not data:
            open_ = False
            break
        if s is stub:
            said += data
            client.sendall(data)
        else:
            stub.sendall(data)
with open(out, "wb") as f:
    f.write(said)
os.unlink(lpath)
