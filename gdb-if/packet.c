/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * gdb-if/packet.c — the GDB remote serial protocol packet codec; see
 * packet.h for the wire format and the invariants.
 *
 * Trade-off: a packet is only decoded once it is complete (the `#CS` is in
 * the buffer), so a slow stub costs a rescan of the prefix per read; the
 * replies we take are a few KiB and this keeps the scanner stateless
 * apart from the garbage counter.
 */
#include <string.h>

#include "gdb-if/packet.h"

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Expand escapes and run lengths of raw[0..n) into out; GDB_SCAN_PACKET
 * on success, else the failure. */
static enum gdb_scan expand(const uint8_t *raw, size_t n, char *out, size_t cap, size_t *outlen)
{
	size_t o = 0;
	for (size_t i = 0; i < n; i++) {
		uint8_t c = raw[i];
		if (c == '}') {
			if (++i >= n)
				return GDB_SCAN_MALFORMED;
			c = raw[i] ^ 0x20;
		} else if (c == '*') {
			/* Repeat count N - 29 of the previous byte; the protocol
			 * forbids counts that would encode `#` or `$`, and a
			 * leading `*` has nothing to repeat. */
			if (o == 0 || ++i >= n || raw[i] < 29 + 3 || raw[i] > 126)
				return GDB_SCAN_MALFORMED;
			size_t rep = raw[i] - 29u;
			if (rep > cap - o)
				return GDB_SCAN_TOOBIG;
			memset(out + o, out[o - 1], rep);
			o += rep;
			continue;
		}
		if (o >= cap)
			return GDB_SCAN_TOOBIG;
		out[o++] = (char)c;
	}
	*outlen = o;
	return GDB_SCAN_PACKET;
}

/* buf[0] is `$`: find `#CS`, verify, decode. */
static enum gdb_scan packet(const uint8_t *buf, size_t n, size_t *consumed, char *out,
			    size_t cap, size_t *outlen)
{
	size_t lim = n < GDB_PKT_MAX_RAW + 4 ? n : GDB_PKT_MAX_RAW + 4;
	const uint8_t *hash = memchr(buf + 1, '#', lim - 1);
	if (!hash) {
		if (n > GDB_PKT_MAX_RAW + 1) {
			*consumed = n;
			return GDB_SCAN_TOOBIG;
		}
		return GDB_SCAN_MORE;
	}
	size_t rawlen = (size_t)(hash - buf) - 1;
	if (rawlen > GDB_PKT_MAX_RAW) {
		*consumed = n;
		return GDB_SCAN_TOOBIG;
	}
	if ((size_t)(hash - buf) + 3 > n)
		return GDB_SCAN_MORE;
	*consumed = (size_t)(hash - buf) + 3;
	int hi = hexval(hash[1]), lo = hexval(hash[2]);
	if (hi < 0 || lo < 0)
		return GDB_SCAN_MALFORMED;
	uint8_t sum = 0;
	for (size_t i = 1; i <= rawlen; i++)
		sum = (uint8_t)(sum + buf[i]);
	if (sum != (uint8_t)(hi << 4 | lo))
		return GDB_SCAN_BADSUM;
	return expand(buf + 1, rawlen, out, cap, outlen);
}

enum gdb_scan gdb_pkt_scan(struct gdb_scan_state *st, const uint8_t *buf, size_t n,
			   size_t *consumed, char *out, size_t cap, size_t *outlen)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '+' || buf[i] == '-') {
			*consumed = i + 1;
			return buf[i] == '+' ? GDB_SCAN_ACK : GDB_SCAN_NAK;
		}
		if (buf[i] == '$') {
			size_t used = 0;
			enum gdb_scan r = packet(buf + i, n - i, &used, out, cap, outlen);
			/* On MORE, drop only the noise before the `$`. */
			*consumed = r == GDB_SCAN_MORE ? i : i + used;
			return r;
		}
		/* Noise (or a `%` notification we never asked for). */
		if (++st->garbage > GDB_PKT_MAX_GARBAGE) {
			*consumed = i + 1;
			return GDB_SCAN_MALFORMED;
		}
	}
	/* Everything seen was noise: let the caller drop it. */
	*consumed = n;
	return GDB_SCAN_MORE;
}

size_t gdb_pkt_frame(char *out, size_t cap, const char *data, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	uint8_t sum = 0;
	if (cap < 4)
		return 0;
	out[o++] = '$';
	for (size_t i = 0; i < len; i++) {
		uint8_t c = (uint8_t)data[i];
		int esc = c == '$' || c == '#' || c == '}' || c == '*';
		if (o + (esc ? 2 : 1) + 3 > cap)
			return 0;
		if (esc) {
			out[o++] = '}';
			sum = (uint8_t)(sum + '}');
			c ^= 0x20;
		}
		out[o++] = (char)c;
		sum = (uint8_t)(sum + c);
	}
	out[o++] = '#';
	out[o++] = hex[sum >> 4];
	out[o++] = hex[sum & 15];
	return o;
}

int gdb_hex_decode(const char *hex, uint8_t *bytes, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int hi = hexval((unsigned char)hex[2 * i]), lo = hexval((unsigned char)hex[2 * i + 1]);
		if (hi < 0 || lo < 0)
			return -1;
		bytes[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}

int gdb_reg_le(const char *hex, size_t hexlen, size_t off, size_t size, uint64_t *val)
{
	uint8_t b[8];
	if (size > 8 || off > hexlen || 2 * size > hexlen - off)
		return -1;
	if (gdb_hex_decode(hex + off, b, size) < 0)
		return -1;
	uint64_t v = 0;
	for (size_t i = size; i-- > 0;)
		v = v << 8 | b[i];
	*val = v;
	return 0;
}

int gdb_hex_num(const char **s, const char *end, uint64_t *val)
{
	const char *p = *s;
	uint64_t v = 0;
	int nd = 0;
	for (; p < end && hexval((unsigned char)*p) >= 0; p++, nd++) {
		if (nd == 16)
			return -1;
		v = v << 4 | (uint64_t)hexval((unsigned char)*p);
	}
	if (nd == 0)
		return -1;
	*s = p;
	*val = v;
	return 0;
}

const char *gdb_scan_str(enum gdb_scan s)
{
	switch (s) {
	case GDB_SCAN_MORE: return "incomplete packet";
	case GDB_SCAN_PACKET: return "packet";
	case GDB_SCAN_ACK: return "ack";
	case GDB_SCAN_NAK: return "negative ack";
	case GDB_SCAN_BADSUM: return "bad checksum";
	case GDB_SCAN_TOOBIG: return "oversized reply";
	case GDB_SCAN_MALFORMED: return "malformed packet";
	}
	return "unknown";
}
