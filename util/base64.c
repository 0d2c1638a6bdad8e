/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/base64.c — RFC 4648 base64, encoder and strict decoder.
 *
 * Trade-off: a table-driven loop, not a vectorised codec: the largest
 * use is a few megabytes of embedded profile per SVG, and the decoder
 * reads untrusted files, where simple code is worth more than speed.
 * The encoder writes a quad that fits the current line whole (no test
 * per character): it runs on the embed thread, the longest path of a
 * large render (issue 32: 35.3 -> 16.7 M instructions on tree-100k).
 * When the line width is a multiple of 8 (the embedded block's 4096),
 * whole lines go 6 bytes to 8 characters at a time (little-endian
 * hosts): one 8-byte load, four lookups of two characters each, one
 * 8-byte store, no column test inside a line.
 */
#include <string.h>

#include "util/base64.h"

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t uf_base64_encoded_len(size_t n, size_t line)
{
	size_t chars = (n + 2) / 3 * 4;
	return line && chars ? chars + (chars - 1) / line : chars;
}

/* Appends the four characters of v's 24 bits (pad: how many of the last
 * two are '=') to out at *o, a newline first whenever `line` characters
 * ended the last one.  A quad that fits the current line is written
 * whole: no per-character test. */
static inline void put_quad(char *out, size_t *o, size_t *col, size_t line, uint32_t v, int pad)
{
	char q[4] = { ALPHABET[v >> 18], ALPHABET[(v >> 12) & 63], pad < 2 ? ALPHABET[(v >> 6) & 63] : '=',
		      pad < 1 ? ALPHABET[v & 63] : '=' };
	if (!line || *col + 4 <= line) {
		memcpy(out + *o, q, 4);
		*o += 4;
		*col += 4;
		return;
	}
	for (int k = 0; k < 4; k++) {
		if (*col == line) {
			out[(*o)++] = '\n';
			*col = 0;
		}
		out[(*o)++] = q[k];
		(*col)++;
	}
}

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FAST_LINES 1

/* The alphabet as a constant expression, and the two characters of each
 * 12-bit value as they lie in memory (the first in the low byte): a
 * 6-byte group is four lookups, made at compile time, no start-up work
 * and nothing shared to set up between threads. */
#define B64(k) ((k) < 26 ? 'A' + (k) : (k) < 52 ? 'a' + (k) - 26 : (k) < 62 ? '0' + (k) - 52 : (k) == 62 ? '+' : '/')
#define PAIR(i) (uint16_t)(B64((i) >> 6) | B64((i) & 63) << 8)
#define P4(i) PAIR(i), PAIR((i) + 1), PAIR((i) + 2), PAIR((i) + 3)
#define P16(i) P4(i), P4((i) + 4), P4((i) + 8), P4((i) + 12)
#define P64(i) P16(i), P16((i) + 16), P16((i) + 32), P16((i) + 48)
#define P256(i) P64(i), P64((i) + 64), P64((i) + 128), P64((i) + 192)
#define P1024(i) P256(i), P256((i) + 256), P256((i) + 512), P256((i) + 768)
static const uint16_t PAIRS[4096] = { P1024(0), P1024(1024), P1024(2048), P1024(3072) };

/* in[0..n), n a multiple of 6, as n / 6 * 8 characters at out; no
 * newline.  A group's 48 bits come from one big-endian 8-byte load while
 * 8 bytes are there (the last group's from its 6). */
static char *encode_sixes(const uint8_t *in, size_t n, char *out)
{
	for (size_t i = 0; i < n; i += 6, out += 8) {
		uint64_t v;
		if (i + 8 <= n) {
			memcpy(&v, in + i, 8);
			v = __builtin_bswap64(v) >> 16;
		} else {
			v = (uint64_t)in[i] << 40 | (uint64_t)in[i + 1] << 32 | (uint64_t)in[i + 2] << 24 |
			    (uint64_t)in[i + 3] << 16 | (uint64_t)in[i + 4] << 8 | in[i + 5];
		}
		uint64_t w = (uint64_t)PAIRS[v >> 36] | (uint64_t)PAIRS[(v >> 24) & 4095] << 16 |
			     (uint64_t)PAIRS[(v >> 12) & 4095] << 32 | (uint64_t)PAIRS[v & 4095] << 48;
		memcpy(out, &w, 8);
	}
	return out;
}

/* The encoder for a line width that is 0 or a multiple of 8: a line's
 * line / 4 * 3 bytes are whole 6-byte groups, so each line is one
 * encode_sixes() run and a newline; the last (partial) line ends in up
 * to 5 bytes, one or two quads, the last padded. */
static size_t encode_lines(const uint8_t *in, size_t n, char *out, size_t line)
{
	size_t per = line ? line / 4 * 3 : n - n % 6, i = 0;
	char *o = out;
	while (per && n - i >= per) {
		if (i && line)
			*o++ = '\n';
		o = encode_sixes(in + i, per, o);
		i += per;
	}
	if (i == n)
		return (size_t)(o - out);
	if (i && line)
		*o++ = '\n';
	size_t six = (n - i) - (n - i) % 6;
	o = encode_sixes(in + i, six, o);
	size_t k = (size_t)(o - out), col = 0; /* the last line has room: no newline in it */
	for (i += six; i + 3 <= n; i += 3)
		put_quad(out, &k, &col, 0, (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2], 0);
	if (i + 2 == n)
		put_quad(out, &k, &col, 0, (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8, 1);
	else if (i + 1 == n)
		put_quad(out, &k, &col, 0, (uint32_t)in[i] << 16, 2);
	return k;
}

#endif

size_t uf_base64_encode(const uint8_t *in, size_t n, char *out, size_t line)
{
#ifdef FAST_LINES
	if (line % 8 == 0)
		return encode_lines(in, n, out, line);
#endif
	size_t o = 0, col = 0, i = 0;
	for (; i + 3 <= n; i += 3)
		put_quad(out, &o, &col, line, (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8 | in[i + 2], 0);
	if (i + 2 == n)
		put_quad(out, &o, &col, line, (uint32_t)in[i] << 16 | (uint32_t)in[i + 1] << 8, 1);
	else if (i + 1 == n)
		put_quad(out, &o, &col, line, (uint32_t)in[i] << 16, 2);
	return o;
}

/* 0..63 for an alphabet byte, 64 for '=', 65 for whitespace, 66 otherwise */
static int class_of(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	if (c == '=')
		return 64;
	if (c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f')
		return 65;
	return 66;
}

long long uf_base64_decode(const char *text, size_t len, uint8_t *out)
{
	size_t o = 0;
	int q[4], nq = 0, pad = 0;
	for (size_t i = 0; i < len; i++) {
		int c = class_of((unsigned char)text[i]);
		if (c == 65)
			continue;
		if (c == 66 || (pad > 0 && c != 64))
			return -1; /* a stranger, or data after padding */
		if (c == 64) {
			if (nq < 2)
				return -1;
			pad++;
		}
		q[nq++] = c == 64 ? 0 : c;
		if (nq < 4)
			continue;
		uint32_t v = (uint32_t)q[0] << 18 | (uint32_t)q[1] << 12 | (uint32_t)q[2] << 6 | (uint32_t)q[3];
		out[o++] = (uint8_t)(v >> 16);
		if (pad < 2)
			out[o++] = (uint8_t)(v >> 8);
		if (pad < 1)
			out[o++] = (uint8_t)v;
		nq = 0;
		if (pad)
			pad = 3; /* the group with padding was the last */
	}
	return nq ? -1 : (long long)o;
}
