/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/escape.c — displayable names and XML escaping; see escape.h.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "render/escape.h"
#include "util/vec.h"

/* Length of a valid UTF-8 sequence at s that XML allows, or 0. */
static size_t valid_utf8(const unsigned char *s, size_t len)
{
	unsigned char c = s[0];
	if (c >= 0x20 && c < 0x7f)
		return 1;
	size_t n = (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
	if (n == 0 || n > len)
		return 0;
	uint32_t v = n == 2 ? (c & 0x1fu) : n == 3 ? (c & 0x0fu) : (c & 0x07u);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		v = (v << 6) | (s[i] & 0x3fu);
	}
	static const uint32_t min[] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (v < min[n] || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff) || v == 0xfffe || v == 0xffff ||
	    (v >= 0x80 && v <= 0x9f))
		return 0;
	return n;
}

int escape_display(struct display *d, const char *s, size_t len)
{
	d->len = 0;
	d->chars = 0;
	if (uf_vec_grow(&d->buf, &d->cap, len * 4 + 1, 1))
		return -ENOMEM;
	const unsigned char *u = (const unsigned char *)s;
	for (size_t i = 0; i < len;) {
		size_t run = i; /* printable ASCII (nearly every byte of a name): copied as a run */
		while (run < len && u[run] >= 0x20 && u[run] < 0x7f)
			run++;
		if (run > i) {
			memcpy(d->buf + d->len, u + i, run - i);
			d->len += run - i;
			d->chars += run - i;
			i = run;
			continue;
		}
		size_t n = valid_utf8(u + i, len - i);
		if (n) {
			memcpy(d->buf + d->len, u + i, n);
			d->len += n;
			i += n;
		} else {
			static const char hex[] = "0123456789ABCDEF";
			d->buf[d->len++] = '\\';
			d->buf[d->len++] = 'x';
			d->buf[d->len++] = hex[u[i] >> 4];
			d->buf[d->len++] = hex[u[i] & 15];
			d->chars += 3;
			i++;
		}
		d->chars++;
	}
	d->buf[d->len] = 0;
	return 0;
}

/* The five bytes escape_xml_put writes as entities. */
static const unsigned char xml_special[256] = { ['&'] = 1, ['<'] = 1, ['>'] = 1, ['"'] = 1, ['\''] = 1 };

/* 16 bytes a step with SSE2 (as signed bytes, those of 0x80 and above
 * are below ' '), then one at a time. */
int escape_is_plain(const char *s, size_t len)
{
	size_t i = 0;
#ifdef __SSE2__
	const __m128i space = _mm_set1_epi8(' '), del = _mm_set1_epi8(0x7f), amp = _mm_set1_epi8('&'),
		      lt = _mm_set1_epi8('<'), gt = _mm_set1_epi8('>'), quot = _mm_set1_epi8('"'),
		      apos = _mm_set1_epi8('\'');
	for (; i + 16 <= len; i += 16) {
		__m128i v = _mm_loadu_si128((const void *)(s + i));
		__m128i bad = _mm_or_si128(_mm_cmplt_epi8(v, space), _mm_cmpeq_epi8(v, del));
		bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, amp), _mm_cmpeq_epi8(v, lt)));
		bad = _mm_or_si128(bad, _mm_or_si128(_mm_cmpeq_epi8(v, gt), _mm_cmpeq_epi8(v, quot)));
		bad = _mm_or_si128(bad, _mm_cmpeq_epi8(v, apos));
		if (_mm_movemask_epi8(bad))
			return 0;
	}
#endif
	for (; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c < 0x20 || c >= 0x7f || xml_special[c])
			return 0;
	}
	return 1;
}

size_t escape_prefix_bytes(const struct display *d, size_t chars)
{
	size_t i = 0;
	for (size_t c = 0; c < chars && i < d->len; c++) {
		i++;
		while (i < d->len && ((unsigned char)d->buf[i] & 0xc0) == 0x80)
			i++;
	}
	return i;
}

void escape_xml_put(void (*put)(void *ctx, const char *s, size_t n), void *ctx, const char *s,
		    size_t len)
{
	size_t run = 0;
	for (size_t i = 0; i < len; i++) {
		const char *ent = NULL;
		size_t elen;
		while (i < len && !xml_special[(unsigned char)s[i]]) /* most bytes: one load and test */
			i++;
		if (i == len)
			break;
		switch (s[i]) {
		case '&': ent = "&amp;", elen = 5; break;
		case '<': ent = "&lt;", elen = 4; break;
		case '>': ent = "&gt;", elen = 4; break;
		case '"': ent = "&quot;", elen = 6; break;
		case '\'': ent = "&#39;", elen = 5; break;
		default: continue;
		}
		put(ctx, s + run, i - run);
		put(ctx, ent, elen);
		run = i + 1;
	}
	put(ctx, s + run, len - run);
}

static void put_file(void *out, const char *s, size_t n)
{
	fwrite(s, 1, n, out);
}

void escape_xml(FILE *out, const char *s, size_t len)
{
	escape_xml_put(put_file, out, s, len);
}

void escape_xml_any(FILE *out, const char *s, size_t len)
{
	struct display d = { 0 };
	if (escape_display(&d, s, len) == 0)
		escape_xml(out, d.buf, d.len);
	free(d.buf);
}
