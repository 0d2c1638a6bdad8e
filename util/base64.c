/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/base64.c — RFC 4648 base64, encoder and strict decoder.
 *
 * Trade-off: a table-driven byte loop, not a vectorised codec: the
 * largest use is a few megabytes of embedded profile per SVG, a few
 * milliseconds either way, and the decoder reads untrusted files, where
 * simple code is worth more than speed.
 */
#include "util/base64.h"

static const char ALPHABET[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t uf_base64_encoded_len(size_t n, size_t line)
{
	size_t chars = (n + 2) / 3 * 4;
	return line && chars ? chars + (chars - 1) / line : chars;
}

size_t uf_base64_encode(const uint8_t *in, size_t n, char *out, size_t line)
{
	size_t o = 0, col = 0;
	for (size_t i = 0; i < n; i += 3) {
		uint32_t v = (uint32_t)in[i] << 16;
		if (i + 1 < n)
			v |= (uint32_t)in[i + 1] << 8;
		if (i + 2 < n)
			v |= in[i + 2];
		char q[4] = { ALPHABET[v >> 18], ALPHABET[(v >> 12) & 63],
			      i + 1 < n ? ALPHABET[(v >> 6) & 63] : '=', i + 2 < n ? ALPHABET[v & 63] : '=' };
		for (int k = 0; k < 4; k++) {
			if (line && col == line) {
				out[o++] = '\n';
				col = 0;
			}
			out[o++] = q[k];
			col++;
		}
	}
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
