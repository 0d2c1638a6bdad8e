/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-gdb-packet.c — the GDB remote protocol codec
 * (gdb-if/packet.c) over any byte stream a stub may send.
 *
 * Input: the bytes a stub sends, scanned as gdb-if/conn.c does (event by
 * event, consumed bytes dropped); each packet's data also goes through
 * the register, hex-number and hex-decode helpers.  Oracles: packet.h's
 * invariants (never past n or cap, every outcome an enum value, consumed
 * within the buffer and progress on every outcome but MORE), and
 * framing any decoded packet then scanning it gives the same data back.
 */
#include "tests/fuzz/fuzz.h"

#include "gdb-if/packet.h"

#define CAP 4096

static void helpers(const char *d, size_t n)
{
	uint64_t v;
	uint8_t bytes[CAP / 2];
	const char *p = d;
	(void)gdb_reg_le(d, n, n > 16 ? (size_t)(d[0] & 0x3f) * 16 : 0, 8, &v);
	(void)gdb_reg_le(d, n, n / 2, 4, &v);
	(void)gdb_hex_num(&p, d + n, &v);
	if (p < d || p > d + n)
		fuzz_fail("gdb_hex_num moved outside its input");
	(void)gdb_hex_decode(d, bytes, n / 2);
}

/* Frame the data and scan it again: the same bytes must come back. */
static void roundtrip(const char *d, size_t n)
{
	static char framed[3 * CAP + 8], back[CAP];
	size_t f = gdb_pkt_frame(framed, sizeof framed, d, n), used = 0, blen = 0;
	struct gdb_scan_state st = { 0 };
	if (f == 0)
		fuzz_fail("gdb_pkt_frame refused %zu bytes into %zu", n, sizeof framed);
	enum gdb_scan s = gdb_pkt_scan(&st, (const uint8_t *)framed, f, &used, back, sizeof back,
				       &blen);
	if (s != GDB_SCAN_PACKET || used != f || blen != n || memcmp(back, d, n))
		fuzz_fail("frame/scan round trip: outcome %d, %zu/%zu bytes", (int)s, blen, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char out[CAP + 1];
	struct gdb_scan_state st = { 0 };
	size_t off = 0, cap = size ? 16 + data[0] % (CAP - 16) : CAP;
	for (int events = 0; off < size && events < 10000; events++) {
		size_t used = (size_t)-1, outlen = (size_t)-1;
		enum gdb_scan s = gdb_pkt_scan(&st, data + off, size - off, &used, out, cap, &outlen);
		if ((int)s < GDB_SCAN_MORE || s > GDB_SCAN_MALFORMED || used > size - off)
			fuzz_fail("scan: outcome %d, consumed %zu of %zu", (int)s, used, size - off);
		if (gdb_scan_str(s) == NULL)
			fuzz_fail("no name for outcome %d", (int)s);
		if (s == GDB_SCAN_PACKET) {
			if (outlen > cap)
				fuzz_fail("packet of %zu bytes into %zu", outlen, cap);
			helpers(out, outlen);
			roundtrip(out, outlen);
		}
		if (s == GDB_SCAN_MORE && used == 0)
			break;   /* conn.c reads more bytes now; there are none */
		if (used == 0)
			fuzz_fail("outcome %d consumed nothing", (int)s);
		off += used;
	}
	return 0;
}
