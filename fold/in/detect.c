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
 * anything else is folded text.  Text with a NUL byte up to the end of its
 * first content line (neither empty nor a '#' comment), when that line is
 * not a folded stack ("frames SPACE count"), is FOLD_FMT_BINARY: an
 * executable or a core file given by mistake is refused (exit 2) rather
 * than drawn from whatever of its strings end in a number (issue 31: every
 * ELF file has a NUL in its first 8 bytes).  Trade-off: a NUL inside a
 * frame name stays readable (names are byte strings and round-trip through
 * the SVG, tests/render/t-render.sh "hostile names"), so a line that ends
 * in a count is text whatever its bytes.  A NUL further on is left to the
 * readers: checking the whole input here would make the answer depend on
 * how much of it the caller holds (invariant 1).
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
static int binary_first_line(const unsigned char *p, size_t len, int eof);

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
	int bin = i < len ? binary_first_line(p, len, eof) : 0;
	if (bin == -2) /* decide only once the first content line is seen (invariant 3) */
		bin = len >= FOLD_DETECT_MAX ? 0 : -3;
	if (bin == -3)
		return FOLD_FMT_MORE;
	if (bin > 0)
		return FOLD_FMT_BINARY;
	if (bin < 0)
		return len >= FOLD_DETECT_MAX ? FOLD_FMT_BINARY : FOLD_FMT_MORE;
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
	case FOLD_FMT_BINARY: return "binary";
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

/* Whether [b, e) ends like a folded stack line: a blank, then a count
 * (digits and at most one '.'), then an optional CR. */
static int ends_in_count(const unsigned char *p, size_t b, size_t e)
{
	if (e > b && p[e - 1] == '\r')
		e--;
	size_t d = e;
	while (d > b && ((p[d - 1] >= '0' && p[d - 1] <= '9') || p[d - 1] == '.'))
		d--;
	return d < e && d > b && (p[d - 1] == ' ' || p[d - 1] == '\t');
}

/* 1 when a NUL byte comes before the end of the first line that is
 * neither empty nor a '#' comment and that line does not end in a count
 * (or the NUL is in a comment or blank line before it); 0 when that line
 * is NUL-free or a stack line; -1 when it holds a NUL but is cut (no
 * newline yet, !eof): whether a count ends it is still unknown; -2 when
 * no content line has begun yet and more bytes may come. */
static int binary_first_line(const unsigned char *p, size_t len, int eof)
{
	size_t i = 0;
	while (i < len) {
		const unsigned char *nl = memchr(p + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - p) : len;
		size_t b = i;
		while (b < end && (p[b] == ' ' || p[b] == '\t' || p[b] == '\r' || p[b] == '\v' ||
				   p[b] == '\f' || p[b] == 0xef || p[b] == 0xbb || p[b] == 0xbf))
			b++;
		int content = b < end && p[b] != '#';
		if (memchr(p + i, 0, end - i)) {
			if (!content)
				return 1; /* a NUL in a comment or blank line: no text has one */
			if (!nl && !eof)
				return -1;
			return !ends_in_count(p, b, end);
		}
		if (content) /* the first content line, NUL-free: once it is whole */
			return nl || eof ? 0 : -2;
		i = end + 1;
	}
	return eof ? 0 : -2; /* no content line yet: more bytes may bring one with a NUL */
}
