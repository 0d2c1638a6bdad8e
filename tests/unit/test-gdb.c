/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-gdb.c — the GDB remote protocol codec (gdb-if/packet.h):
 * framing, checksums, acks, escapes, run-length encoding and every way a
 * hostile stub can break them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "gdb-if/packet.h"

/* Scan a C string; returns the outcome, fills out/consumed. */
static enum gdb_scan scan(const char *in, char *out, size_t cap, size_t *outlen, size_t *used)
{
	struct gdb_scan_state st = { 0 };
	*outlen = 0;
	enum gdb_scan s = gdb_pkt_scan(&st, (const uint8_t *)in, strlen(in), used, out, cap, outlen);
	if (s == GDB_SCAN_PACKET)
		out[*outlen] = '\0';
	return s;
}

static void gdb_frame_checksums(void **state)
{
	char buf[64];
	size_t n = gdb_pkt_frame(buf, sizeof buf, "g", 1);
	assert_int_equal(n, 5);
	assert_memory_equal(buf, "$g#67", 5);
	n = gdb_pkt_frame(buf, sizeof buf, "qSupported", 10);
	assert_memory_equal(buf, "$qSupported#37", n);
	/* `#` inside data is escaped as }\x03 and counted in the sum. */
	n = gdb_pkt_frame(buf, sizeof buf, "a#", 2);
	assert_int_equal(n, 7);
	assert_memory_equal(buf, "$a}\x03#e1", 7);
	assert_int_equal(gdb_pkt_frame(buf, 5, "gg", 2), 0);   /* does not fit */
}

static void gdb_frame_roundtrip(void **state)
{
	const char *data = "m$#}*x";
	char framed[64], out[64];
	size_t n = gdb_pkt_frame(framed, sizeof framed, data, strlen(data)), used, len;
	framed[n] = '\0';
	assert_int_equal(scan(framed, out, sizeof out, &len, &used), GDB_SCAN_PACKET);
	assert_int_equal(used, n);
	assert_string_equal(out, data);
}

static void gdb_scan_acks_and_noise(void **state)
{
	char out[64];
	size_t len, used;
	assert_int_equal(scan("+$OK#9a", out, sizeof out, &len, &used), GDB_SCAN_ACK);
	assert_int_equal(used, 1);
	assert_int_equal(scan("-", out, sizeof out, &len, &used), GDB_SCAN_NAK);
	assert_int_equal(scan("junk$OK#9a", out, sizeof out, &len, &used), GDB_SCAN_PACKET);
	assert_string_equal(out, "OK");
	assert_int_equal(used, 10);
	/* incomplete: only the noise before `$` may be dropped */
	assert_int_equal(scan("xx$OK#9", out, sizeof out, &len, &used), GDB_SCAN_MORE);
	assert_int_equal(used, 2);
	assert_int_equal(scan("$OK", out, sizeof out, &len, &used), GDB_SCAN_MORE);
	assert_int_equal(used, 0);
}

static void gdb_scan_bad_checksum(void **state)
{
	char out[64];
	size_t len, used;
	assert_int_equal(scan("$OK#9b", out, sizeof out, &len, &used), GDB_SCAN_BADSUM);
	assert_int_equal(used, 6);
	assert_int_equal(scan("$OK#zz", out, sizeof out, &len, &used), GDB_SCAN_MALFORMED);
	assert_int_equal(scan("$OK#9A", out, sizeof out, &len, &used), GDB_SCAN_PACKET);
}

static void gdb_scan_run_length(void **state)
{
	char out[64];
	size_t len, used;
	/* "0* " = '0' and 3 more: "0000"; sum of "0* " = 0x30+0x2a+0x20 = 0x7a */
	assert_int_equal(scan("$0* #7a", out, sizeof out, &len, &used), GDB_SCAN_PACKET);
	assert_string_equal(out, "0000");
	/* a leading `*` has nothing to repeat; sum("* ") = 0x4a */
	assert_int_equal(scan("$* #4a", out, sizeof out, &len, &used), GDB_SCAN_MALFORMED);
	/* `*` at the end has no count: sum("0*") = 0x5a */
	assert_int_equal(scan("$0*#5a", out, sizeof out, &len, &used), GDB_SCAN_MALFORMED);
	/* a count that would expand past the output cap: "0*~" = 97 more */
	assert_int_equal(scan("$0*~#d8", out, 16, &len, &used), GDB_SCAN_TOOBIG);
}

static void gdb_scan_escapes(void **state)
{
	char out[64];
	size_t len, used;
	/* "}]" decodes to '}' ^ ... : ']' ^ 0x20 = '}'; sum("}]") = 0x7d+0x5d = 0xda */
	assert_int_equal(scan("$}]#da", out, sizeof out, &len, &used), GDB_SCAN_PACKET);
	assert_string_equal(out, "}");
	/* a dangling escape: sum("}") = 0x7d */
	assert_int_equal(scan("$}#7d", out, sizeof out, &len, &used), GDB_SCAN_MALFORMED);
}

static void gdb_scan_oversized(void **state)
{
	static uint8_t big[GDB_PKT_MAX_RAW + 16];
	char out[64];
	size_t len = 0, used = 0;
	struct gdb_scan_state st = { 0 };
	big[0] = '$';
	memset(big + 1, 'a', sizeof big - 1);
	/* no `#` within the cap: oversized, and the bytes are consumed */
	assert_int_equal(gdb_pkt_scan(&st, big, sizeof big, &used, out, sizeof out, &len),
			 GDB_SCAN_TOOBIG);
	assert_int_equal(used, sizeof big);
	/* a complete packet larger than the output buffer */
	assert_int_equal(scan("$aaaaaaaa#08", out, 4, &len, &used), GDB_SCAN_TOOBIG);
}

static void gdb_scan_garbage_cap(void **state)
{
	static uint8_t noise[GDB_PKT_MAX_GARBAGE + 10];
	char out[16];
	size_t len, used = 0;
	struct gdb_scan_state st = { 0 };
	memset(noise, 'x', sizeof noise);
	assert_int_equal(gdb_pkt_scan(&st, noise, sizeof noise, &used, out, sizeof out, &len),
			 GDB_SCAN_MALFORMED);
	assert_true(used <= sizeof noise);
	/* noise is counted across calls too */
	struct gdb_scan_state st2 = { 0 };
	for (int i = 0; i < 3; i++)
		gdb_pkt_scan(&st2, noise, GDB_PKT_MAX_GARBAGE / 2, &used, out, sizeof out, &len);
	assert_true(st2.garbage > GDB_PKT_MAX_GARBAGE);
}

static void gdb_regs_little_endian(void **state)
{
	uint64_t v = 0;
	const char *g = "0102030405060708" "xxxxxxxxxxxxxxxx";
	assert_int_equal(gdb_reg_le(g, strlen(g), 0, 8, &v), 0);
	assert_int_equal(v, 0x0807060504030201ull);
	assert_int_equal(gdb_reg_le(g, strlen(g), 16, 8, &v), -1);   /* unavailable */
	assert_int_equal(gdb_reg_le(g, 10, 0, 8, &v), -1);           /* short reply */
	assert_int_equal(gdb_reg_le(g, strlen(g), 1000, 8, &v), -1);  /* beyond */
}

static void gdb_hex_numbers(void **state)
{
	const char *s = "1f,", *end = s + 3;
	uint64_t v;
	assert_int_equal(gdb_hex_num(&s, end, &v), 0);
	assert_int_equal(v, 0x1f);
	assert_int_equal(*s, ',');
	const char *none = ",";
	assert_int_equal(gdb_hex_num(&none, none + 1, &v), -1);
	const char *huge = "11112222333344445", *h = huge;
	assert_int_equal(gdb_hex_num(&h, huge + strlen(huge), &v), -1);
	uint8_t b[2];
	assert_int_equal(gdb_hex_decode("zz00", b, 2), -1);
	assert_int_equal(gdb_hex_decode("ff00", b, 2), 0);
	assert_int_equal(b[0], 0xff);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(gdb_frame_checksums),
		cmocka_unit_test(gdb_frame_roundtrip),
		cmocka_unit_test(gdb_scan_acks_and_noise),
		cmocka_unit_test(gdb_scan_bad_checksum),
		cmocka_unit_test(gdb_scan_run_length),
		cmocka_unit_test(gdb_scan_escapes),
		cmocka_unit_test(gdb_scan_oversized),
		cmocka_unit_test(gdb_scan_garbage_cap),
		cmocka_unit_test(gdb_regs_little_endian),
		cmocka_unit_test(gdb_hex_numbers),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
