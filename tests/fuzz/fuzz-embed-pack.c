/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-embed-pack.c — the unpacker of the packed embedded
 * block (fold/embed-pack.c): base64, a zlib stream, varint columns.
 *
 * Input: a mode byte, then bytes.  Mode bit 0 clear: the bytes are the
 * inflated payload (columns and text), which the harness deflates and
 * encodes, so the fuzzer explores the column decoder rather than zlib's
 * checksums; set: the bytes are the base64 text itself, as a hostile SVG
 * would carry it.  Oracles: unpacking never reads or writes out of
 * bounds (ASan); text it accepts packs again, and unpacking that gives
 * the same text (what the SVG reader reads is what the writer would
 * write); the text then goes through fold_embed_read without harm, and
 * the trie it gives writes the same block through the text writer and
 * through the column writer render uses.
 */
#include <zlib.h>

#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"
#include "util/base64.h"

/* payload -> base64 of its zlib stream (malloc'd), or NULL */
static char *encode(const uint8_t *p, size_t n, size_t *out_len)
{
	uLongf zlen = compressBound(n);
	uint8_t *z = malloc(zlen);
	if (!z || compress2(z, &zlen, p, n, 1) != Z_OK)
		abort();
	char *b = malloc(uf_base64_encoded_len(zlen, 76) + 1);
	if (!b)
		abort();
	*out_len = uf_base64_encode(z, zlen, b, 76);
	free(z);
	return b;
}

static void check_round_trip(const char *text, size_t len)
{
	char *packed, *again;
	size_t plen, alen;
	struct uf_err err = { 0 };
	int rc = fold_embed_pack(text, len, &packed, &plen);
	if (rc == -ENOMEM)
		return;
	if (rc != 0)
		fuzz_fail("text the unpacker wrote does not pack again: %d", rc);
	if (fold_embed_unpack(packed, plen, &again, &alen, &err) != 0)
		fuzz_fail("packed text does not unpack: %s", err.why);
	if (alen != len || memcmp(again, text, len) != 0)
		fuzz_fail("unpack(pack(text)) differs from text (%zu vs %zu bytes)", alen, len);
	free(packed);
	free(again);
}

/* The column writer render uses and the text writer give one block:
 * encode(columns) unpacks to the text, byte for byte. */
static void check_writers_agree(const fold_trie *t)
{
	struct fuzz_mem text = { 0 }, cols = { 0 };
	struct fold_embed_info info;
	if (fuzz_mem_open(&text) || fuzz_mem_open(&cols))
		abort();
	int a = fold_embed_write(t, text.f, 0, &info);
	int b = fold_embed_write_columns(t, cols.f, 0, &info);
	fuzz_mem_close(&text);
	fuzz_mem_close(&cols);
	if (a != b)
		fuzz_fail("the text writer returned %d, the column writer %d", a, b);
	char *packed = NULL, *back = NULL;
	size_t plen, blen;
	struct uf_err err = { 0 };
	if (a == 0 && fold_embed_encode(cols.buf, cols.len, 0, &packed, &plen) == 0) {
		if (fold_embed_unpack(packed, plen, &back, &blen, &err) != 0)
			fuzz_fail("the column writer's block does not unpack: %s", err.why);
		if (blen != text.len || memcmp(back, text.buf, blen) != 0)
			fuzz_fail("the column writer's block differs from the text writer's");
	}
	free(packed);
	free(back);
	free(text.buf);
	free(cols.buf);
}

static int fuzz_input(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	int raw = data[0] & 1;
	size_t blen = size - 1;
	char *b64 = raw ? NULL : encode(data + 1, size - 1, &blen);
	const char *in = raw ? (const char *)data + 1 : b64;
	char *text;
	size_t tlen;
	struct uf_err err = { 0 };
	if (fold_embed_unpack(in, blen, &text, &tlen, &err) == 0) {
		if (fuzz_oracle())
			check_round_trip(text, tlen);
		fold_trie *t = fold_trie_new();
		struct uf_err e2 = { 0 };
		if (t && fold_embed_read(t, text, tlen, &e2) == 0) {
			if (fold_trie_check(t) != 0)
				fuzz_fail("fold_trie_check failed after an unpacked block");
			if (fuzz_oracle() && fold_trie_finish(t) == 0)
				check_writers_agree(t);
		}
		fold_trie_free(t);
		free(text);
	} else if (!err.why[0]) {
		fuzz_fail("unpack failed without saying why");
	}
	free(b64);
	return 0;
}

FUZZ_READER(fuzz_input)
