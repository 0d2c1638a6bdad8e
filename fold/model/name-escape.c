/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/name-escape.c — the one escaping rule for frame names in the text
 * formats we write and read back: folded stacks and palette.map (see
 * "Folded stacks" in README.md).
 *
 * Names may hold any byte (an SVG's embedded data, a guest's ELF symbols,
 * a thread's comm), but folded text cannot carry a newline (it ends the
 * line) or ';' (it splits frames).  Such bytes are written as "\xHH"
 * (two lowercase hex digits), the notation the SVG uses to show bytes XML
 * cannot carry; a backslash that would otherwise read as the start of an
 * escape ("\x" and two hex digits follow it in the name) is written as
 * "\x5c".  Readers decode every "\xHH" (either case).  Every other byte,
 * and every name without these, is written exactly as flamegraph.pl
 * would, so ordinary profiles are unchanged.
 *
 * Trade-off: a folded file from another tool whose names contain the
 * literal text "\xHH" is read with that text decoded; such names are rare
 * (nothing in perf, stackcollapse or the reference inputs writes them),
 * and the alternative — no escape — let a name forge lines.
 *
 * Invariants:
 *  1. fold_name_unescape(fold_name_escape(s)) == s for every byte string.
 *  2. An escaped name holds no '\n' and no ';'; it is at most 4x longer.
 *  3. A name with no '\n', ';' or "\xHH" escapes to itself.
 */
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"

static int hexval(unsigned char c)
{
	return c >= '0' && c <= '9' ? c - '0'
	       : (c | 0x20) >= 'a' && (c | 0x20) <= 'f' ? (c | 0x20) - 'a' + 10
							: -1;
}

/* Whether s[i..len) starts with "\xHH". */
static int at_escape(const char *s, size_t i, size_t len)
{
	return i + 3 < len && s[i] == '\\' && s[i + 1] == 'x' &&
	       hexval((unsigned char)s[i + 2]) >= 0 && hexval((unsigned char)s[i + 3]) >= 0;
}

size_t fold_name_escape(char *out, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\n' || c == ';' || (c == '\\' && at_escape(s, i, len))) {
			out[o++] = '\\';
			out[o++] = 'x';
			out[o++] = hex[c >> 4];
			out[o++] = hex[c & 15];
		} else {
			out[o++] = (char)c;
		}
	}
	return o;
}

int fold_name_needs_escape(const char *s, size_t len)
{
	if (memchr(s, '\n', len) || memchr(s, ';', len))
		return 1;
	for (const char *p = s; (p = memchr(p, '\\', len - (size_t)(p - s))) != NULL; p++)
		if (at_escape(s, (size_t)(p - s), len))
			return 1;
	return 0;
}

size_t fold_name_unescape(char *out, const char *s, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '\\' && at_escape(s, i, len)) {
			out[o++] = (char)(hexval((unsigned char)s[i + 2]) << 4 |
					  hexval((unsigned char)s[i + 3]));
			i += 3;
		} else {
			out[o++] = s[i];
		}
	}
	return o;
}

int fold_name_leaf_ambiguous(const char *s, size_t len)
{
	size_t e = len;
	while (e > 0 && ((s[e - 1] >= '0' && s[e - 1] <= '9') || s[e - 1] == '.'))
		e--;
	if (e == len || e == 0)
		return 0;
	char c = s[e - 1];
	return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

uint32_t fold_intern_folded_frame(fold_trie *t, const char *f, size_t flen)
{
	if (!memchr(f, '\\', flen)) /* the common case: no escape possible */
		return fold_trie_intern(t, f, flen);
	char small[256], *buf = flen <= sizeof small ? small : malloc(flen);
	if (!buf)
		return FOLD_NONE;
	uint32_t id = fold_trie_intern(t, buf, fold_name_unescape(buf, f, flen));
	if (buf != small)
		free(buf);
	return id;
}
