/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/in/detect.c — the one routine that tells an input's format from
 * its first bytes (fold_detect_format in fold/in/in.h).
 *
 * Every place that must know what an input is asks here: fold_read_path
 * picks its reader with it (and again inside a gzip stream).  Two
 * routines that disagree let a crafted file be read as two different
 * things (an SVG parsed as folded text, its XML comments taken as
 * stacks), so no caller sniffs on its own.
 *
 * Trade-off: the format comes from content, never from the file name, so
 * pipes and misnamed files work; the price is that a folded file whose
 * first non-blank byte is '<' cannot be read as folded text (a frame
 * name starting with '<' on the first line): it is an SVG/XML document.
 *
 * The order: gzip's magic bytes 1f 8b at offset 0 (the caller
 * decompresses and asks again about the decompressed bytes); '<' first
 * after blanks: SVG; `perf script` text (fold_perf_sniff in
 * fold/read-perf.c: the first line that is not a '#' comment or empty is
 * a sample header, ending in "event:" or followed by a frame line);
 * anything else is folded text.
 *
 * Invariants:
 *  1. The decision depends only on the first two bytes, the bytes up to
 *     the first one that is not an optional UTF-8 BOM or whitespace
 *     (space, tab, CR, LF, VT, FF), and for text the lines up to the
 *     first one that is neither empty nor a '#' comment plus the line
 *     after it; so any caller holding a longer prefix of the same input
 *     gets the same answer.
 *  2. FOLD_FMT_MORE is returned only when !eof and the bytes seen do not
 *     decide (all blank, a lone 1f, or the perf lines above incomplete),
 *     and never past FOLD_DETECT_MAX bytes: callers read on and ask
 *     again, bounded.  Text still undecided at FOLD_DETECT_MAX is folded.
 *  3. Past FOLD_DETECT_MAX bytes of only whitespace the answer is
 *     FOLD_FMT_UNKNOWN (callers refuse the input: exit 2), never a guess.
 */
#include <string.h>

#include "fold/in/in.h"

static size_t skip_blank(const unsigned char *p, size_t len);

enum fold_format fold_detect_format(const void *buf, size_t len, int eof)
{
	const unsigned char *p = buf;
	if (len > FOLD_DETECT_MAX) { /* invariant 3: decide on the same window */
		len = FOLD_DETECT_MAX;
		eof = 0;
	}
	if (len >= 2 && p[0] == 0x1f && p[1] == 0x8b)
		return FOLD_FMT_GZIP;
	if (len == 1 && p[0] == 0x1f && !eof)
		return FOLD_FMT_MORE;
	size_t i = skip_blank(p, len);
	if (i < len && p[i] == '<')
		return FOLD_FMT_SVG;
	if (i < len) {
		int perf = fold_perf_sniff((const char *)p, len, eof);
		if (perf < 0)
			return len >= FOLD_DETECT_MAX ? FOLD_FMT_FOLDED : FOLD_FMT_MORE;
		return perf ? FOLD_FMT_PERF : FOLD_FMT_FOLDED;
	}
	if (len >= FOLD_DETECT_MAX)
		return FOLD_FMT_UNKNOWN;
	/* only blanks so far: a partial BOM or whitespace */
	return eof ? FOLD_FMT_FOLDED : FOLD_FMT_MORE;
}

const char *fold_format_name(enum fold_format f)
{
	switch (f) {
	case FOLD_FMT_FOLDED: return "folded";
	case FOLD_FMT_SVG: return "SVG";
	case FOLD_FMT_MORE: return "undecided";
	case FOLD_FMT_PERF: return "perf script";
	case FOLD_FMT_GZIP: return "gzip";
	case FOLD_FMT_UNKNOWN: break;
	}
	return "unknown";
}

/* Index of the first byte after an optional BOM and whitespace. */
static size_t skip_blank(const unsigned char *p, size_t len)
{
	size_t i = 0;
	static const unsigned char bom[3] = { 0xef, 0xbb, 0xbf };
	while (i < len && i < 3 && p[i] == bom[i])
		i++;
	if (i > 0 && i < 3)
		return i < len ? 0 : len; /* a partial BOM: undecided, or not a BOM */
	while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '\r' ||
			   p[i] == '\v' || p[i] == '\f'))
		i++;
	return i;
}
