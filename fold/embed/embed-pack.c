/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/embed-pack.c — the embedded block as an SVG carries it: packed,
 * deflated, in base64.
 *
 * A browser's XML parser reads every byte of the file before the first
 * paint, about 20 ms a megabyte in Chromium (bench/browser/RESULTS.md),
 * and the uf-trie/1 text (embed.c) spends most of its bytes on node lines
 * "DEPTH NAME SELF".  So the writer packs the text:
 *
 *   1. the header line and the NAMES name lines, as in the text;
 *   2. NODES varints (LEB128): the previous node's depth + 1 - this
 *      node's depth (the root's previous depth is -1), mostly one byte;
 *   3. NODES varints: each node's name index;
 *   4. NODES lines: what follows "DEPTH NAME " on each node line (its
 *      counts, as text: counts may be decimals of up to 95 digits);
 *   5. the rest of the text ("end" and the optional sections), verbatim;
 *
 * then makes it one zlib stream (RFC 1950, what the browser's
 * DecompressionStream("deflate") and our reader's zlib inflate): stored
 * (zlib, level 0) below STORE_BELOW bytes of columns when that fits the
 * block's budget, else deflated by libdeflate at its fastest level
 * (twice zlib's speed on a large block, and 4 % smaller; the choice
 * changes the stream's bytes, never what they inflate to): in one call
 * below FOLD_EMBED_SPLIT_FROM bytes, from there in two raw-deflate parts
 * that two threads can make at once (fold_embed_split_*, joined by
 * join_parts: part 0's last block, found by inflating it, made
 * non-final, an empty stored block to reach a byte, part 1, the
 * Adler-32s combined), and writes it as base64 broken into lines of
 * FOLD_EMBED_PACK_LINE characters.
 * On the s100k bench input (271,501 call paths) that is 1.25 MB in place
 * of 3.18 MB of text; on tree100k 0.60 MB in place of 1.87 MB.
 *
 * render writes the columns directly (embed.c, fold_embed_write_columns)
 * and encodes them (fold_embed_encode); fold_embed_pack() packs text the
 * text writer made, the same bytes (the unit tests and fuzz-embed-pack
 * hold the two writers to that).
 *
 * Unpacking gives back the text byte for byte, and embed-read.c parses
 * that with all its checks; the unpacker checks only what keeps it in
 * bounds: every column within the inflated bytes, depths never below 0
 * nor past FOLD_MAX_DEPTH, the inflated size capped (a deflate stream can
 * expand about 1000x): at most PACK_MAX_RATIO times the deflated bytes
 * past PACK_RATIO_FLOOR, and FOLD_EMBED_MAX_UNPACKED in all.  The text
 * unpacking makes is then at most ~7x the inflated bytes (a node's 4
 * bytes at least become two decimals and its count line), so memory is
 * proportional to the SVG (issue 28: a 1.39 MB SVG inflated to 1 GiB and
 * took 4.6 GB and 77 s).  Real blocks inflate 2-5x (s100k: 2.5x).
 *
 * Trade-off: columns rather than a deflated copy of the text (1.83 MB on
 * s100k): deflate finds little to share between a depth, a name index
 * and a count on one line, and much within a column.  Level 1: level 6
 * is 5% smaller and 3x slower, and the block is made beside the layout
 * of every large render.  Two parts joined rather than one call from
 * 256 KiB: the stream is a few hundred bytes longer either way (tree-100k
 * -1.5 KB, the diff +2.3 KB of SVG) and the extra inflate costs ~2 ms of
 * CPU, but the drawing thread, idle by then, makes half the deflate.  libdeflate compresses only our own columns
 * (nothing untrusted goes through it: inflating an SVG's block is
 * zlib's), which is why the release binary links it statically.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

#include "fold/embed/embed.h"
#include "fold/embed/internal.h"
#include "util/base64.h"
#include "util/vec.h"

struct bytes {
	uint8_t *p;
	size_t len, cap;
};

static int put(struct bytes *b, const void *s, size_t n)
{
	if (n == 0)
		return 0; /* s may be an empty column's NULL */
	if (uf_vec_grow(&b->p, &b->cap, b->len + n, 1))
		return -ENOMEM;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	return 0;
}

static int put_varint(struct bytes *b, uint32_t v)
{
	uint8_t q[5];
	return put(b, q, fold_varint(q, v));
}

/* Reads a varint of at most 5 bytes below 2^32 from *p (< end). */
static int get_varint(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
	uint64_t x = 0;
	for (int shift = 0; shift < 35; shift += 7) {
		if (*p >= end)
			return -1;
		uint8_t c = *(*p)++;
		x |= (uint64_t)(c & 127) << shift;
		if (!(c & 128)) {
			if (x > UINT32_MAX)
				return -1;
			*v = (uint32_t)x;
			return 0;
		}
	}
	return -1;
}

/* The header "uf-trie/1 NAMES NODES DIFF PRUNED" ending at nl. */
static int parse_header(const char *s, const char *nl, uint32_t *nnames, uint32_t *nnodes)
{
	char h[96];
	size_t n = (size_t)(nl - s);
	if (n >= sizeof h)
		return -1;
	memcpy(h, s, n);
	h[n] = 0;
	unsigned a, b, c, d;
	char extra;
	if (sscanf(h, "uf-trie/1 %u %u %u %u%c", &a, &b, &c, &d, &extra) != 4)
		return -1;
	*nnames = a;
	*nnodes = b;
	return 0;
}

/* Past `lines` lines from s; NULL when the text ends first. */
static const char *skip_lines(const char *s, const char *end, uint64_t lines)
{
	for (; lines > 0; lines--) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		if (!nl)
			return NULL;
		s = nl + 1;
	}
	return s;
}

/* The header line and the NAMES name lines at s: where they end (the
 * node columns or lines start), NULL when they are not whole. */
static const char *after_names(const char *s, const char *end, uint32_t *nnames, uint32_t *nnodes)
{
	const char *nl = memchr(s, '\n', (size_t)(end - s));
	if (!nl || parse_header(s, nl, nnames, nnodes))
		return NULL;
	return skip_lines(nl + 1, end, *nnames);
}

static int parse_dec(const char **p, const char *end, uint32_t *v)
{
	uint64_t x = 0;
	const char *s = *p;
	while (*p < end && **p >= '0' && **p <= '9' && x <= UINT32_MAX)
		x = x * 10 + (uint64_t)(*(*p)++ - '0');
	if (*p == s || x > UINT32_MAX || *p >= end || **p != ' ')
		return -1;
	(*p)++;
	*v = (uint32_t)x;
	return 0;
}

/* Text -> packed bytes (the columns above, not yet deflated). */
static int pack_columns(const char *text, size_t len, struct bytes *out)
{
	const char *end = text + len;
	uint32_t nnames, nnodes;
	const char *nodes = after_names(text, end, &nnames, &nnodes);
	if (!nodes)
		return -EINVAL;
	struct bytes name = { 0 }, count = { 0 };
	int rc = put(out, text, (size_t)(nodes - text));
	int64_t prev = -1;
	const char *p = nodes;
	for (uint32_t i = 0; i < nnodes && rc == 0; i++) {
		uint32_t depth, id;
		const char *eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol || parse_dec(&p, eol, &depth) || parse_dec(&p, eol, &id) || depth > prev + 1) {
			rc = -EINVAL;
			break;
		}
		rc = put_varint(out, (uint32_t)(prev + 1 - depth));
		if (rc == 0)
			rc = put_varint(&name, id);
		if (rc == 0)
			rc = put(&count, p, (size_t)(eol + 1 - p));
		prev = depth;
		p = eol + 1;
	}
	if (rc == 0)
		rc = put(out, name.p, name.len);
	if (rc == 0)
		rc = put(out, count.p, count.len);
	if (rc == 0)
		rc = put(out, p, (size_t)(end - p));
	free(name.p);
	free(count.p);
	return rc;
}

int fold_embed_pack(const char *text, size_t len, char **out, size_t *outlen)
{
	struct bytes cols = { 0 };
	int rc = pack_columns(text, len, &cols);
	if (rc == 0)
		rc = fold_embed_encode(cols.p, cols.len, 0, out, outlen);
	else
		*out = NULL;
	free(cols.p);
	return rc;
}

/* Columns below this are stored, not deflated, when the stored block
 * fits the budget: deflate costs ~20 ns a byte here (the small capture's
 * 19,850 bytes of columns: zlib level 1 380-400 us, libdeflate level 1
 * 180 us warm, stored 9 us), a tenth of a small render's CPU, to save
 * bytes that a browser parses in ~0.3 ms (16 KB on that capture: its SVG
 * 289,060 -> 305,128 bytes).  From here on, libdeflate (deflate_large). */
#define STORE_BELOW (64u << 10)

static int base64_block(const uint8_t *z, size_t zlen, char **out, size_t *outlen);
static int stores(size_t len, size_t max_out);

/* The zlib stream of len stored bytes: 2 header bytes, a 5-byte header
 * per stored deflate block of at most 65,535 bytes (and one for an empty
 * stream), the bytes, the 4-byte Adler-32. */
static size_t stored_len(size_t len)
{
	return 2 + (len / 65535 + 1) * 5 + len + 4;
}

/* zlib at level 0 with its smallest window and hash (512 B + 1 KiB):
 * the stream every inflater takes, without deflate's search. */
static int store_small(const void *in, size_t len, uint8_t *z, size_t *zlen)
{
	z_stream s = { .next_in = (Bytef *)(uintptr_t)in, .avail_in = (uInt)len, .next_out = z,
		       .avail_out = (uInt)*zlen };
	if (deflateInit2(&s, Z_NO_COMPRESSION, Z_DEFLATED, 9, 1, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	int zr = deflate(&s, Z_FINISH);
	*zlen = s.total_out;
	deflateEnd(&s);
	return zr == Z_STREAM_END ? 0 : -ENOMEM;
}

/* A block of 64-256 KiB of columns in one libdeflate call at its
 * fastest level: one zlib stream (RFC 1950, as zlib's), twice zlib's
 * level 1 speed and 4 % smaller.  Larger blocks are two parts
 * (fold_embed_split_*): libdeflate cannot flush mid-stream, so the
 * parts are joined after the fact. */
static int deflate_large(const void *in, size_t len, uint8_t *z, size_t *zlen)
{
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
	if (!c)
		return -ENOMEM;
	size_t n = libdeflate_zlib_compress(c, in, len, z, *zlen);
	libdeflate_free_compressor(c);
	*zlen = n;
	return n ? 0 : -ENOMEM;
}

/* The split (embed.h, FOLD_EMBED_SPLIT_FROM): part 0 is the first
 * SPLIT_NUM/SPLIT_DEN of the columns.  Part 0's thread also inflates its
 * part to find the last block (~0.4 of its deflate's time on tree-100k's
 * columns), so part 0 is the smaller: 2/5 ends the two parts within
 * ~0.3 ms of each other there. */
#define SPLIT_NUM 2
#define SPLIT_DEN 5
/* Output room for the inflate that finds part 0's blocks: its bytes are
 * not kept (they are the columns), only where each block starts. */
#define FIND_OUT ((size_t)64 << 10)

int fold_embed_split_init(struct fold_embed_split *s, const void *columns, size_t len, size_t max_out)
{
	memset(s, 0, sizeof *s);
	if (len < FOLD_EMBED_SPLIT_FROM || len >= FOLD_EMBED_MAX_UNPACKED || stores(len, max_out))
		return 0;
	s->in = columns;
	s->len = len;
	s->mid = len / SPLIT_DEN * SPLIT_NUM;
	return 1;
}

/* Where part 0's last block starts (its BFINAL bit) and how many bits
 * of its last byte are left unused: zlib's inflate stops at each block's
 * end when asked (Z_BLOCK) and says (data_type) how many bits of the
 * last byte it took are unused and whether the stream has ended.
 * libdeflate reports no block boundaries, so this costs an inflate of
 * the part (into a scratch window: the bytes are the columns). */
static int find_last_block(struct fold_embed_split *s)
{
	uint8_t *scratch = malloc(FIND_OUT);
	z_stream zs = { .next_in = s->z[0], .avail_in = (uInt)s->zlen[0] };
	if (!scratch || inflateInit2(&zs, -15) != Z_OK) {
		free(scratch);
		return -ENOMEM;
	}
	size_t last = SIZE_MAX;
	int zr = Z_OK, unused = -1;
	while (zr == Z_OK) {
		zs.next_out = scratch;
		zs.avail_out = (uInt)FIND_OUT;
		zr = inflate(&zs, Z_BLOCK);
		if (zr != Z_OK || !(zs.data_type & 128))
			continue; /* not at a block's end */
		if (zs.data_type & 64) /* after the last block: the ending's Z_STREAM_END drops these bits */
			unused = zs.data_type & 7;
		else /* before a block's header, which may be the last */
			last = (s->zlen[0] - zs.avail_in) * 8 - (size_t)(zs.data_type & 7);
	}
	inflateEnd(&zs);
	free(scratch);
	if (zr != Z_STREAM_END || zs.avail_in != 0 || last == SIZE_MAX || unused < 0 ||
	    !((s->z[0][last / 8] >> (last % 8)) & 1))
		return -EIO; /* never for libdeflate's own stream */
	s->final_bit = last;
	s->unused_bits = unused;
	return 0;
}

void fold_embed_split_part(struct fold_embed_split *s, int k)
{
	size_t lo = k ? s->mid : 0, n = k ? s->len - s->mid : s->mid;
	struct libdeflate_compressor *c = libdeflate_alloc_compressor(1);
	size_t cap = c ? libdeflate_deflate_compress_bound(c, n) : 0;
	s->rc[k] = -ENOMEM;
	if (c && (s->z[k] = malloc(cap)) && (s->zlen[k] = libdeflate_deflate_compress(c, s->in + lo, n, s->z[k], cap))) {
		s->adler[k] = libdeflate_adler32(1, s->in + lo, n);
		s->rc[k] = k == 0 ? find_last_block(s) : 0;
	}
	libdeflate_free_compressor(c);
}

/* The zlib stream of the two parts: header, part 0 with its last block
 * made non-final, an empty stored block (3 zero bits, zeros to the byte,
 * 00 00 FF FF) so part 1 starts on a byte, part 1, the Adler-32 of all. */
static uint8_t *join_parts(const struct fold_embed_split *s, size_t *zlen)
{
	uint8_t *z = malloc(2 + s->zlen[0] + 5 + s->zlen[1] + 4);
	if (!z)
		return NULL;
	size_t n = 0;
	z[n++] = 0x78; /* deflate, 32 KiB window, fastest: as libdeflate's level 1 */
	z[n++] = 0x01;
	memcpy(z + n, s->z[0], s->zlen[0]);
	z[n + s->final_bit / 8] &= (uint8_t)~(1u << (s->final_bit % 8));
	n += s->zlen[0];
	/* the stored header's zero bits start in part 0's unused bits: clear
	 * them (libdeflate pads with zeros, but that is not promised) */
	z[n - 1] &= (uint8_t)((1u << (8 - s->unused_bits)) - 1);
	if (s->unused_bits < 3) /* the rest of the header spills into a byte */
		z[n++] = 0;
	memcpy(z + n, "\x00\x00\xff\xff", 4);
	n += 4;
	memcpy(z + n, s->z[1], s->zlen[1]);
	n += s->zlen[1];
	uLong a = adler32_combine(s->adler[0], s->adler[1], (z_off_t)(s->len - s->mid));
	for (int sh = 24; sh >= 0; sh -= 8)
		z[n++] = (uint8_t)(a >> sh);
	*zlen = n;
	return z;
}

int fold_embed_split_finish(struct fold_embed_split *s, char **out, size_t *outlen)
{
	*out = NULL;
	int rc = s->rc[0] ? s->rc[0] : s->rc[1];
	uint8_t *z = NULL;
	size_t zlen = 0;
	if (rc == -EIO) { /* part 0's blocks not found (never seen): one call, a valid stream still */
		zlen = libdeflate_zlib_compress_bound(NULL, s->len);
		rc = (z = malloc(zlen)) ? deflate_large(s->in, s->len, z, &zlen) : -ENOMEM;
	} else if (rc == 0 && !(z = join_parts(s, &zlen))) {
		rc = -ENOMEM;
	}
	free(s->z[0]);
	free(s->z[1]);
	s->z[0] = s->z[1] = NULL;
	if (rc == 0)
		rc = base64_block(z, zlen, out, outlen);
	free(z);
	return rc;
}

/* Deflated bytes -> the block's base64 lines (malloc'd, NUL-ended). */
static int base64_block(const uint8_t *z, size_t zlen, char **out, size_t *outlen)
{
	size_t n = uf_base64_encoded_len(zlen, FOLD_EMBED_PACK_LINE);
	char *b64 = malloc(n + 1);
	if (!b64)
		return -ENOMEM;
	*outlen = uf_base64_encode(z, zlen, b64, FOLD_EMBED_PACK_LINE);
	b64[*outlen] = 0;
	*out = b64;
	return 0;
}

/* Whether the block is stored: small, and its base64 within max_out
 * (0: no limit), so that storing never makes a budget prune more. */
static int stores(size_t len, size_t max_out)
{
	return len < STORE_BELOW &&
	       (max_out == 0 || uf_base64_encoded_len(stored_len(len), FOLD_EMBED_PACK_LINE) <= max_out);
}

int fold_embed_encode(const void *columns, size_t len, size_t max_out, char **out, size_t *outlen)
{
	*out = NULL;
	if (len >= FOLD_EMBED_MAX_UNPACKED)
		return -EFBIG; /* the reader refuses it: never written */
	struct fold_embed_split s;
	if (fold_embed_split_init(&s, columns, len, max_out)) { /* the bytes two threads make */
		fold_embed_split_part(&s, 0);
		fold_embed_split_part(&s, 1);
		return fold_embed_split_finish(&s, out, outlen);
	}
	/* the bound of the encoder used: a stored block never touches
	 * libdeflate's code, so no page of it is mapped (peak RSS) */
	int store = stores(len, max_out);
	size_t zlen = store ? stored_len(len) + 64 : libdeflate_zlib_compress_bound(NULL, len);
	uint8_t *z = malloc(zlen);
	if (!z)
		return -ENOMEM;
	int rc = store ? store_small(columns, len, z, &zlen) : deflate_large(columns, len, z, &zlen);
	if (rc == 0)
		rc = base64_block(z, zlen, out, outlen);
	free(z);
	return rc;
}

#define PACK_MAX_RATIO 64
#define PACK_RATIO_FLOOR ((size_t)16 << 20)

/* The most a block of zlen deflated bytes may inflate to. */
static size_t unpacked_max(size_t zlen)
{
	size_t m = zlen > FOLD_EMBED_MAX_UNPACKED / PACK_MAX_RATIO ? FOLD_EMBED_MAX_UNPACKED
								    : zlen * PACK_MAX_RATIO;
	return m < PACK_RATIO_FLOOR ? PACK_RATIO_FLOOR : m;
}

/* Doubles out's room (first: four times the deflated size), never past
 * unpacked_max(zlen). */
static int grow_capped(struct bytes *out, size_t zlen)
{
	size_t max = unpacked_max(zlen);
	if (out->cap >= max)
		return -EFBIG;
	size_t want = out->cap ? out->cap * 2 : (zlen < 16384 ? 65536 : zlen * 4);
	if (want > max)
		want = max;
	uint8_t *p = realloc(out->p, want);
	if (!p)
		return -ENOMEM;
	out->p = p;
	out->cap = want;
	return 0;
}

/* base64 -> the inflated bytes, at most FOLD_EMBED_MAX_UNPACKED. */
static int inflate_b64(const char *b64, size_t len, struct bytes *out, struct uf_err *err)
{
	uint8_t *z = malloc(len / 4 * 3 + 3);
	if (!z) {
		uf_err_set(err, UF_EINPUT, "embedded data", "out of memory");
		return -ENOMEM;
	}
	long long zlen = uf_base64_decode(b64, len, z);
	if (zlen < 0) {
		free(z);
		uf_err_set(err, UF_EINPUT, "embedded data", "packed block is not base64");
		return -EINVAL;
	}
	z_stream s = { 0 };
	int zr = inflateInit(&s), rc = zr == Z_OK ? 0 : -ENOMEM;
	s.next_in = z;
	s.avail_in = (uInt)zlen; /* zlen < len < INT32_MAX: the SVG reader's cap */
	while (rc == 0 && zr != Z_STREAM_END) {
		if (out->len == out->cap && (rc = grow_capped(out, (size_t)zlen)))
			break;
		size_t room = out->cap - out->len;
		s.next_out = out->p + out->len;
		s.avail_out = (uInt)(room > UINT32_MAX ? UINT32_MAX : room);
		uInt before = s.avail_out;
		zr = inflate(&s, Z_NO_FLUSH);
		out->len += before - s.avail_out;
		if (zr == Z_BUF_ERROR)
			rc = -EINVAL; /* room was given: the stream ends early */
		else if (zr != Z_OK && zr != Z_STREAM_END)
			rc = zr == Z_MEM_ERROR ? -ENOMEM : -EINVAL;
	}
	if (rc == 0 && s.avail_in != 0)
		rc = -EINVAL; /* bytes after the stream */
	inflateEnd(&s);
	free(z);
	if (rc == -EFBIG && unpacked_max((size_t)zlen) < FOLD_EMBED_MAX_UNPACKED)
		uf_err_set(err, UF_EINPUT, "embedded data", "packed block inflates more than %d times "
			   "its size (a deflate bomb?)", PACK_MAX_RATIO);
	else if (rc == -EFBIG)
		uf_err_set(err, UF_EINPUT, "embedded data", "packed block inflates past %u MiB",
			   (unsigned)(FOLD_EMBED_MAX_UNPACKED >> 20));
	else if (rc == -EINVAL)
		uf_err_set(err, UF_EINPUT, "embedded data", "packed block is not a whole deflate stream");
	else if (rc)
		uf_err_set(err, UF_EINPUT, "embedded data", "out of memory");
	return rc;
}

static int put_dec(struct bytes *b, uint32_t v)
{
	char s[16];
	int n = snprintf(s, sizeof s, "%u ", v);
	return put(b, s, (size_t)n);
}

/* Packed columns -> the text they came from. */
static int unpack_columns(const struct bytes *in, struct bytes *text)
{
	const char *s = (const char *)in->p, *end = s + in->len;
	uint32_t nnames, nnodes;
	const char *names_end = after_names(s, end, &nnames, &nnodes);
	if (!names_end)
		return -EINVAL;
	/* the counts (4) start after NODES varints of each of 2 and 3 */
	const uint8_t *dcol = (const uint8_t *)names_end, *ncol = dcol, *e = (const uint8_t *)end;
	uint32_t v;
	for (uint32_t i = 0; i < nnodes; i++)
		if (get_varint(&ncol, e, &v))
			return -EINVAL;
	const uint8_t *ccol = ncol;
	for (uint32_t i = 0; i < nnodes; i++)
		if (get_varint(&ccol, e, &v))
			return -EINVAL;
	int rc = put(text, s, (size_t)(names_end - s));
	int64_t prev = -1;
	const char *c = (const char *)ccol;
	for (uint32_t i = 0; i < nnodes && rc == 0; i++) {
		uint32_t code = 0, id = 0; /* both columns were walked above */
		get_varint(&dcol, e, &code);
		get_varint(&ncol, e, &id);
		const char *eol = memchr(c, '\n', (size_t)(end - c));
		if (!eol || code > prev + 1 || prev + 1 - code > FOLD_MAX_DEPTH)
			return -EINVAL;
		prev = prev + 1 - code;
		rc = put_dec(text, (uint32_t)prev);
		if (rc == 0)
			rc = put_dec(text, id);
		if (rc == 0)
			rc = put(text, c, (size_t)(eol + 1 - c));
		c = eol + 1;
	}
	if (rc == 0)
		rc = put(text, c, (size_t)(end - c));
	return rc;
}

int fold_embed_unpack(const char *b64, size_t len, char **text, size_t *tlen, struct uf_err *err)
{
	struct bytes in = { 0 }, out = { 0 };
	*text = NULL;
	*tlen = 0;
	int rc = inflate_b64(b64, len, &in, err);
	if (rc == 0) {
		rc = unpack_columns(&in, &out);
		if (rc == 0)
			rc = put(&out, "", 1);
		if (rc == -EINVAL)
			uf_err_set(err, UF_EINPUT, "embedded data", "packed block is malformed");
		else if (rc)
			uf_err_set(err, UF_EINPUT, "embedded data", "out of memory");
	}
	free(in.p);
	if (rc) {
		free(out.p);
		return rc;
	}
	*text = (char *)out.p;
	*tlen = out.len - 1;
	return 0;
}
