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

size_t uf_base64_encode(const uint8_t *in, size_t n, char *out, size_t line)
{
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
