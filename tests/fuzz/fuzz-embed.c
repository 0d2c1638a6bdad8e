/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-embed.c — the parser of the "uf-trie/1" block an SVG
 * carries in <metadata id="uniprof-flame-data"> (fold/embed-read.c), and
 * its writer (fold/embed.c).
 *
 * Input: the block's text (anyone may have edited the SVG).  Oracles: a
 * block that parses gives a trie passing fold_trie_check(); writing it
 * again (unpruned) and parsing that gives the same block and the same
 * folded text (the SVG's data round trip is lossless); a writer may
 * refuse a trie it cannot write exactly, never change it.
 */
#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"

/* Parses `text`; on success returns the finished trie, else NULL. */
static fold_trie *parse(const char *text, size_t len)
{
	fold_trie *t = fold_trie_new();
	struct uf_err err = { 0 };
	if (!t || fold_embed_read(t, text, len, &err) != 0) {
		fold_trie_free(t);
		return NULL;
	}
	if (fold_trie_check(t) != 0)
		fuzz_fail("fold_trie_check failed after fold_embed_read");
	if (fold_trie_finish(t) != 0) {
		fold_trie_free(t);
		return NULL;
	}
	return t;
}

/* The block and the folded text of t; 0, or -1 when a writer refused t
 * (a count it cannot write exactly: refused, never changed). */
static int emit(const fold_trie *t, struct fuzz_mem *block, struct fuzz_mem *folded)
{
	struct fold_embed_info info;
	if (fuzz_mem_open(block))
		abort();
	int rc = fold_embed_write(t, block->f, 0, &info);
	fuzz_mem_close(block);
	folded->buf = rc == 0 ? fuzz_write_folded(t, &folded->len) : NULL;
	if (rc != 0 && rc != -ERANGE)
		fuzz_fail("fold_embed_write failed: %d", rc);
	if (rc == 0 && folded->buf)
		return 0;
	free(block->buf);
	free(folded->buf);
	return -1;
}

static int fuzz_input(const uint8_t *data, size_t size)
{
	fold_trie *t = parse((const char *)data, size);
	if (!t)
		return 0;
	struct fuzz_mem b1, f1, b2 = { 0 }, f2 = { 0 };
	if (emit(t, &b1, &f1) != 0) {
		fold_trie_free(t);
		return 0;
	}
	fold_trie *u = parse(b1.buf, b1.len);
	if (!u)
		fuzz_fail("a block we wrote does not parse");
	if (emit(u, &b2, &f2) != 0)
		fuzz_fail("a trie read from our own block cannot be written again");
	if (fuzz_oracle() && (b1.len != b2.len || memcmp(b1.buf, b2.buf, b1.len)))
		fuzz_fail("embed write/read/write changed the block");
	if (fuzz_oracle() && (f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len)))
		fuzz_fail("embed round trip changed the folded text");
	free(b1.buf), free(f1.buf), free(b2.buf), free(f2.buf);
	fold_trie_free(t);
	fold_trie_free(u);
	return 0;
}

FUZZ_READER(fuzz_input)
