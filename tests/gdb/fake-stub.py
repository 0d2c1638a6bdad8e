#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tests/gdb/fake-stub.py — a scripted gdbstub for the hostile-stub tests.

    fake-stub.py MODE SOCKET_PATH

Serves one connection on a Unix socket, then exits.  In mode `good` it
behaves like QEMU's stub for a one-vCPU x86-64 guest stopped in `leaf`
called from `mid` called from `root` (pc and a frame-pointer chain in a
small memory image).  Every other mode misbehaves in one way:

  good       correct replies, ack mode, answers QEMU's own query like QEMU
             (so the client pipelines: 0x03, g and m in one write)
  plain      correct replies, ack mode, not QEMU: one request at a time
  noack      correct replies, offers and uses QStartNoAckMode
  rle        correct replies, run-length encoded and escaped where possible
  badsum     every reply after qSupported carries a wrong checksum
  oversized  the `g` reply never ends (megabytes without `#`)
  bigreply   the `g` reply is a complete 300 KiB packet
  malformed  the `g` reply is not hex
  noise      after qSupported, endless bytes that are no packet
  silent     accepts, then never answers
  close      closes the socket after 5 stops
  badstop    answers the interrupt with something that is no stop reply
  latestop   correct for 5 stops, then answers the interrupt with no stop reply
  lateregs   correct for 5 stops, then the `g` reply is not hex
  runstate   good, in no-ack mode, with QEMU's rule for a running guest
             (gdbstub.c gdb_read_byte): any byte that arrives while the
             guest runs stops it and is dropped, and a stop reply is sent
             (QEMU 7.2); a 0x03 that arrives while it is stopped is
             garbage.  So a `D` sent to a running guest is lost and leaves
             it paused.  At the end it writes SOCKET_PATH.state: "running"
             or "paused", and "detached" when a `D` was read.
  runstate-acks  the same in ack mode, with QEMU 8.1's rule: only a 0x03
             that stops the running guest gets a stop reply (a `+` stops
             it without one)
"""
import os
import socket
import sys
import time

PC, FP, SP = 0x401234, 0x7000, 0x6f00
MEM = {0x7000: (0x7040).to_bytes(8, "little") + (0x402222).to_bytes(8, "little"),
       0x7040: (0).to_bytes(8, "little") + (0x403333).to_bytes(8, "little")}


def checksum(data):
    return sum(data) & 0xFF


def frame(data, bad=False):
    cs = checksum(data) ^ (0x55 if bad else 0)
    return b"$" + data + b"#" + b"%02x" % cs


def rle(data):
    out, i = bytearray(), 0
    while i < len(data):
        j = i
        while j < len(data) and data[j] == data[i] and j - i < 97:
            j += 1
        n = j - i - 1
        out.append(data[i])
        # repeat counts that would encode `#` or `$` (n+29 = 35, 36) are skipped
        if n >= 3 and n + 29 not in (35, 36, 42, 43):
            out += b"*" + bytes([n + 29])
        else:
            out += data[i:i + 1] * n
        i = j
    return bytes(out)


def regs():
    r = [0] * 17
    r[6], r[7], r[16] = FP, SP, PC
    hexregs = b"".join(v.to_bytes(8, "little").hex().encode() for v in r)
    return hexregs + b"00" * 4 + b"xx" * 200   # eflags, then "unavailable" registers


def memory(addr, n):
    out = bytearray()
    for a in range(addr, addr + n):
        blk = MEM.get(a - (a % 16)) or b""
        if (a - a % 16) in MEM and a % 16 < len(blk):
            out.append(blk[a % 16])
        elif 0x6000 <= a < 0x8000:
            out.append(0)
        else:
            return b"E14"
    return out.hex().encode()


class Stub:
    def __init__(self, mode, conn):
        self.mode, self.c, self.buf, self.noack, self.stops = mode, conn, b"", False, 0
        self.last, self.sent_first = b"", False
        self.running, self.detached = False, False   # runstate: QEMU stops on connect

    def send(self, data):
        if self.mode == "rle":
            data = rle(data)
        self.last = frame(data, bad=self.mode == "badsum" and self.sent_first)
        self.c.sendall(self.last)
        self.sent_first = True

    def packets(self):
        while True:
            if self.mode.startswith("runstate") and self.running and self.buf:
                ch, self.buf = self.buf[:1], self.buf[1:]   # stops the guest, dropped
                self.running = False
                if self.mode == "runstate" or ch == b"\x03":
                    self.send(b"T02thread:01;")
                continue
            while self.buf[:1] in (b"+", b"-"):
                if self.buf[:1] == b"-" and self.last:
                    self.c.sendall(self.last)   # resend on a negative ack
                self.buf = self.buf[1:]
            if self.buf[:1] == b"\x03":
                self.buf = self.buf[1:]
                if not self.mode.startswith("runstate"):   # stopped already: garbage
                    yield b"\x03"
                continue
            if b"#" in self.buf and len(self.buf.split(b"#", 1)[1]) >= 2:
                head, rest = self.buf.split(b"#", 1)
                self.buf = rest[2:]
                if b"$" not in head:   # runstate: a packet whose `$` stopped the guest
                    continue
                if not self.noack:
                    self.c.sendall(b"+")
                yield head[head.index(b"$") + 1:]
                continue
            chunk = self.c.recv(65536)
            if not chunk:
                return
            self.buf += chunk

    def reply(self, p):
        m = self.mode
        if p == b"\x03":
            self.stops += 1
            if m == "close" and self.stops > 5:
                raise EOFError
            bad = m == "badstop" or (m == "latestop" and self.stops > 5)
            self.send(b"OK" if bad else b"T02thread:01;")
        elif p.startswith(b"qSupported"):
            self.sent_first = False
            self.send(b"PacketSize=1000;qXfer:features:read+" +
                      (b";QStartNoAckMode+" if m in ("noack", "runstate") else b""))
            if m == "noise":
                while True:
                    self.c.sendall(b"noise " * 1000)
            if m == "silent":
                self.c.recv(1 << 20)
                time.sleep(30)
        elif p == b"qqemu.sstepbits":
            self.send(b"" if m in ("plain", "noack") else b"ENABLE=1,NOIRQ=2,NOTIMER=4")
        elif p == b"QStartNoAckMode":
            self.send(b"OK")
            self.noack = True
        elif p == b"?":
            self.send(b"T05thread:01;")
        elif p == b"qfThreadInfo":
            self.send(b"m01")
        elif p == b"qsThreadInfo":
            self.send(b"l")
        elif p.startswith(b"qXfer:features:read:target.xml"):
            self.send(b"l<target><architecture>i386:x86-64</architecture></target>")
        elif p == b"g":
            self.g()
        elif p[:1] == b"m":
            a, n = p[1:].split(b",")
            self.send(memory(int(a, 16), int(n, 16)))
        elif p == b"D":
            self.send(b"OK")
            self.detached, self.running = True, True   # QEMU resumes the guest on detach
        elif p[:2] == b"Hg":
            self.send(b"OK")
        elif p in (b"c",) or p.startswith(b"vCont"):
            self.running = True
        else:
            self.send(b"")

    def g(self):
        if self.mode == "oversized":
            self.c.sendall(b"$")
            for _ in range(64):
                self.c.sendall(b"0" * 65536)
            raise EOFError
        if self.mode == "bigreply":
            self.send(b"0" * (300 * 1024))
        elif self.mode == "malformed" or (self.mode == "lateregs" and self.stops > 5):
            self.send(b"this is not hex at all" * 20)
        else:
            self.send(regs())


def main():
    mode, path = sys.argv[1], sys.argv[2]
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    if os.path.exists(path):
        os.unlink(path)
    srv.bind(path)
    srv.listen(1)
    conn, _ = srv.accept()
    stub = Stub(mode, conn)
    try:
        for p in stub.packets():
            stub.reply(p)
    except (EOFError, BrokenPipeError, ConnectionResetError):
        pass
    conn.close()
    if mode.startswith("runstate"):
        with open(path + ".state", "w") as f:
            f.write(("running" if stub.running else "paused") + (" detached" if stub.detached else "") + "\n")


if __name__ == "__main__":
    main()
