/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-fold.c — the trie, the folded parser and writer, and
 * the embedded block, each case ending with fold_trie_check(); library
 * shares (fold/libshare.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <zlib.h>

#include "fold/fold.h"
#include "util/base64.h"
#include "util/hash.h"

static fold_trie *parse(const char *text, int reverse, struct fold_read_stats *st)
{
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	struct fold_read_opts o = { .reverse = reverse, .label = "mem" };
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(t, text, strlen(text), &o, st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	assert_int_equal(fold_trie_check(t), 0);
	return t;
}

static char *folded(const fold_trie *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(fold_write_folded(t, f), 0);
	fclose(f);
	return buf;
}

static uint32_t path(fold_trie *t, const char *a, const char *b)
{
	uint32_t n = fold_trie_find(t, FOLD_ROOT, fold_trie_intern(t, a, strlen(a)));
	if (b && n != FOLD_NONE)
		n = fold_trie_find(t, n, fold_trie_intern(t, b, strlen(b)));
	return n;
}

static void fold_parses_counts_like_flamegraph_pl(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	/* separator is the last whitespace; trailing empty frames dropped;
	 * "5." is a count; ".5", "1e3", "-1" are not; CRLF tolerated */
	fold_trie *t = parse("a;b 3\na;b;\t2\nc 5.\nd .5\ne 1e3\nf -1\ng 1.25\r\nh\n\n  \n", 0, &st);
	assert_int_equal(st.bad, 4); /* d, e, f, h */
	assert_string_equal(st.first_bad, "mem:4");
	assert_true(t->self[path(t, "a", "b")] == 5);
	assert_true(t->self[path(t, "c", NULL)] == 5);
	assert_true(t->self[path(t, "g", NULL)] == 1.25);
	assert_true(t->total[FOLD_ROOT] == 11.25);
	fold_trie_free(t);
}

static void fold_second_column_makes_a_differential(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	fold_trie *t = parse("m;a 10 12\nm;b 30 10\nm 3\n", 0, &st);
	assert_true(fold_trie_is_diff(t));
	uint32_t a = path(t, "m", "a"), b = path(t, "m", "b"), m = path(t, "m", NULL);
	assert_true(t->base[a] == 10 && t->self[a] == 12);
	assert_true(t->base[b] == 30 && t->self[b] == 10);
	assert_true(t->base[m] == 3 && t->self[m] == 3); /* one column: unchanged */
	assert_true(t->max_line_delta == 20);
	char *s = folded(t);
	assert_string_equal(s, "m 3 3\nm;a 10 12\nm;b 30 10\n");
	free(s);
	fold_trie_free(t);
}

static void fold_reverse_flips_stacks(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	fold_trie *t = parse("leaf;mid;root 2\n;x;y 1\n", 1, &st);
	assert_int_not_equal(path(t, "root", "mid"), FOLD_NONE);
	assert_int_not_equal(path(t, "y", "x"), FOLD_NONE); /* leading empty frame dropped */
	fold_trie_free(t);
}

static void fold_writer_order_matches_byte_sort(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	/* "a" has a self line and children; "a-b" sorts between "a " and "a;" */
	fold_trie *t = parse("a;c 2\na-b 1\na 5\nB 1\n_x 1\na;c;d 1\n", 0, &st);
	char *s = folded(t);
	assert_string_equal(s, "B 1\n_x 1\na 5\na-b 1\na;c 2\na;c;d 1\n");
	/* entries of the root: B, _x, a(self), a-b, a(children) */
	uint32_t n;
	const uint32_t *e = fold_trie_entries(t, FOLD_ROOT, &n);
	assert_int_equal(n, 5);
	assert_true(e[2] & FOLD_ENTRY_SELF);
	assert_false(e[4] & FOLD_ENTRY_SELF);
	assert_int_equal(e[2] & ~FOLD_ENTRY_SELF, e[4]);
	free(s);
	fold_trie_free(t);
}

static void fold_prefix_reuse_is_exact(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	/* consecutive lines sharing byte prefixes but not frames */
	fold_trie *t = parse("ab;c 1\nab;cd 1\na;bc 1\nab;c;e 1\nab 1\nab;c 1\n", 0, &st);
	char *s = folded(t);
	assert_string_equal(s, "a;bc 1\nab 1\nab;c 2\nab;c;e 1\nab;cd 1\n");
	free(s);
	fold_trie_free(t);
}

static void fold_caps_depth(void **state)
{
	(void)state;
	size_t n = FOLD_MAX_DEPTH + 100;
	char *buf = malloc(n * 2 + 8);
	for (size_t i = 0; i < n; i++) {
		buf[2 * i] = 'x';
		buf[2 * i + 1] = ';';
	}
	strcpy(buf + 2 * n - 1, " 1\n");
	struct fold_read_stats st = { 0 };
	fold_trie *t = parse(buf, 0, &st);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(t->maxdepth, FOLD_MAX_DEPTH);
	fold_trie_free(t);
	free(buf);
}

static void fold_embed_round_trip(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	const char *in = "main;\x01\xff%<&]]> 3\nmain;b 1.5\nmain 2\n";
	fold_trie *t = parse(in, 0, &st);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write(t, f, 0, &info), 0);
	fclose(f);
	for (size_t i = 0; i < len; i++) /* printable, nothing XML-special */
		assert_true(buf[i] == '\n' || (buf[i] >= 0x20 && buf[i] < 0x7f && !strchr("<>&\"']", buf[i])));
	fold_trie *u = fold_trie_new();
	struct uf_err err = { 0 };
	assert_int_equal(fold_embed_read(u, buf, len, &err), 0);
	assert_int_equal(fold_trie_finish(u), 0);
	char *a = folded(t), *b = folded(u);
	assert_string_equal(a, b);
	free(a);
	free(b);
	free(buf);
	fold_trie_free(t);
	fold_trie_free(u);
}

static void fold_embed_rejects_corrupt_blocks(void **state)
{
	(void)state;
	static const char *bad[] = {
		"",
		"uf-trie/2 1 1 0 0\n\n0 0 1\nend\n",
		"uf-trie/1 1 1 0 0\n\n0 5 1\nend\n",            /* name out of range */
		"uf-trie/1 2 2 0 0\n\nx\n0 0 1\n2 1 1\nend\n",   /* depth jumps */
		"uf-trie/1 2 2 0 0\n\nx\n0 0 1\n1 1 -1\nend\n",  /* negative */
		"uf-trie/1 1 1 0 0\n\n0 0 1\n",                   /* no end */
		"uf-trie/1 4294967295 1 0 0\n",                   /* header beyond the text */
		"uf-trie/1 1 1 0 0\n%G1\n0 0 1\nend\n",           /* bad escape */
		"uf-trie/1 1 1 0 0\n%4\n0 0 1\nend\n",            /* truncated escape */
		"uf-trie/1 2 2 0 0\n\nx\n0 0 1\n1 1\nend\n",      /* count missing */
		"uf-trie/1 2 2 1 0\n\nx\n0 0 1 1\n1 1 5\nend\n",  /* BEFORE count missing */
		"uf-trie/1 2 2 0 0\n\nx\n0 0 1\n1 1 .5\nend\n",   /* count without its integer part */
		"uf-trie/1 2 2 0 0\n\nx\n0 0 1\n1 1 5x\nend\n",   /* count with a tail */
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		fold_trie *t = fold_trie_new();
		struct uf_err err = { 0 };
		assert_int_not_equal(fold_embed_read(t, bad[i], strlen(bad[i]), &err), 0);
		assert_int_equal(err.cls, UF_EINPUT);
		assert_int_equal(fold_trie_check(t), 0);
		fold_trie_free(t);
	}
}

/* A flame chart's time order rides after the trie (section 5) and comes
 * back into a trie that keeps a sequence; a hostile section is refused. */
static void fold_embed_keeps_sequence(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	fold_trie *t = fold_trie_new();
	fold_trie_keep_sequence(t);
	const char *in = "main;a 1\nmain;b 2\nmain;a 1\nmain;a 4\nidle 1\n";
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(t, in, strlen(in), &(struct fold_read_opts){ 0 }, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write(t, f, 0, &info), 0);
	fclose(f);
	assert_non_null(strstr(buf, "\nend\nseq 4\n"));   /* a a merged: 4 runs */
	fold_trie *u = fold_trie_new();
	fold_trie_keep_sequence(u);
	assert_int_equal(fold_embed_read(u, buf, len, &err), 0);
	assert_int_equal(u->seq_len, 4);
	const char *want[] = { "a", "b", "a", "idle" };
	const double cnt[] = { 1, 2, 5, 1 };
	for (size_t i = 0; i < 4; i++) {
		assert_string_equal(fold_node_name(u, u->seq_node[i], NULL), want[i]);
		assert_true(u->seq_count[i] == cnt[i]);
	}
	static const char *bad[] = { "seq 1\n9 1\nend\n", "seq 1\n0 x\nend\n", "seq 2\n0 1\nend\n",
				     "seq 1\n0 1\n", "seq 99999\n" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char *cut = strstr(buf, "\nend\nseq ") + 5, doc[1024];
		snprintf(doc, sizeof doc, "%.*s%s", (int)(cut - buf), buf, bad[i]);
		fold_trie *v = fold_trie_new();
		fold_trie_keep_sequence(v);
		assert_int_not_equal(fold_embed_read(v, doc, strlen(doc), &err), 0);
		fold_trie_free(v);
	}
	free(buf);
	fold_trie_free(t);
	fold_trie_free(u);
}

/* The block a trie writes, with a flame chart's sequence: text -> pack
 * -> unpack is the identity, the packed form is base64 in lines, and a
 * differential's BEFORE counts ride along. */
static char *embed_text(const char *in, int seq, size_t *len)
{
	struct fold_read_stats st = { 0 };
	fold_trie *t = fold_trie_new();
	if (seq)
		fold_trie_keep_sequence(t);
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(t, in, strlen(in), &(struct fold_read_opts){ 0 }, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write(t, f, 0, &info), 0);
	fclose(f);
	fold_trie_free(t);
	return buf;
}

static void fold_embed_pack_round_trip(void **state)
{
	(void)state;
	static const char *in[] = {
		"main;\x01\xff%<&]]> 3\nmain;b 1.5\nmain 2\n",
		"main;a 1\nmain;b 2\nmain;a 1\nmain;a 4\nidle 1\n",
		"main;a;b 5 7\nmain;c 0 3\nother 2 0\n",
		"a;b;c;d;e;f;g;h;i;j;k;l;m;n;o;p;q;r;s;t 1\na 100000000000000000000000000000\nz 1\n",
	};
	for (size_t i = 0; i < sizeof in / sizeof in[0]; i++) {
		size_t len, plen, ulen;
		char *text = embed_text(in[i], i == 1, &len), *packed, *back;
		assert_int_equal(fold_embed_pack(text, len, &packed, &plen), 0);
		assert_int_equal(strlen(packed), plen);
		for (size_t k = 0; k < plen; k++)
			assert_true(packed[k] == '\n' || isalnum((unsigned char)packed[k]) || strchr("+/=", packed[k]));
		struct uf_err err = { 0 };
		assert_int_equal(fold_embed_unpack(packed, plen, &back, &ulen, &err), 0);
		assert_int_equal(ulen, len);
		assert_memory_equal(back, text, len);
		free(packed);
		free(back);
		/* the writer's own columns (what render embeds) are the same block */
		struct fold_read_stats st = { 0 };
		fold_trie *t = fold_trie_new();
		if (i == 1)
			fold_trie_keep_sequence(t);
		assert_int_equal(fold_read_folded_mem(t, in[i], strlen(in[i]), &(struct fold_read_opts){ 0 }, &st, &err), 0);
		assert_int_equal(fold_trie_finish(t), 0);
		char *cols = NULL;
		size_t clen = 0;
		FILE *f = open_memstream(&cols, &clen);
		struct fold_embed_info info;
		assert_int_equal(fold_embed_write_columns(t, f, 0, &info), 0);
		fclose(f);
		assert_int_equal(fold_embed_encode(cols, clen, 0, &packed, &plen), 0);
		assert_int_equal(fold_embed_unpack(packed, plen, &back, &ulen, &err), 0);
		assert_int_equal(ulen, len);
		assert_memory_equal(back, text, len);
		fold_trie_free(t);
		free(cols);
		free(text);
		free(packed);
		free(back);
	}
}

/* From 64 KiB of columns the block is deflated by libdeflate
 * (embed-pack.c): one zlib stream that zlib inflates, checksum included,
 * the same bytes on every call (output is a pure function of the input),
 * and it unpacks to the text writer's block. */
static void fold_embed_large_is_one_zlib_stream(void **state)
{
	(void)state;
	size_t cap = 8u << 20, tlen = 0;
	char *in = malloc(cap);
	assert_non_null(in);
	uint64_t r = 11;
	for (int line = 0; line < 60000; line++) {
		int depth = 2 + (int)(r >> 60);
		for (int d = 0; d < depth; d++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			tlen += (size_t)snprintf(in + tlen, cap - tlen, "%sfn_%u", d ? ";" : "",
						 (unsigned)(r >> 40) % (d < 2 ? 7u : 5000u));
		}
		tlen += (size_t)snprintf(in + tlen, cap - tlen, " %u\n", (unsigned)(r >> 20) % 1000 + 1);
	}
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	fold_trie *t = fold_trie_new();
	assert_int_equal(fold_read_folded_mem(t, in, tlen, &(struct fold_read_opts){ 0 }, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	char *cols = NULL, *text = NULL;
	size_t clen = 0, len = 0;
	FILE *f = open_memstream(&cols, &clen);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write_columns(t, f, 0, &info), 0);
	fclose(f);
	f = open_memstream(&text, &len);
	assert_int_equal(fold_embed_write(t, f, 0, &info), 0);
	fclose(f);
	assert_true(clen >= (1u << 20)); /* well past the small (zlib) path */
	char *packed, *other, *back;
	size_t plen, olen, ulen;
	assert_int_equal(fold_embed_encode(cols, clen, 0, &packed, &plen), 0);
	assert_int_equal(fold_embed_encode(cols, clen, 0, &other, &olen), 0);
	assert_int_equal(olen, plen);
	assert_memory_equal(other, packed, plen);
	assert_int_equal(fold_embed_unpack(packed, plen, &back, &ulen, &err), 0);
	assert_int_equal(ulen, len);
	assert_memory_equal(back, text, len);
	/* zlib itself agrees, checksum included */
	uint8_t *z = malloc(plen);
	long long zl = uf_base64_decode(packed, plen, z);
	assert_true(zl > 0);
	size_t zlen = (size_t)zl;
	uLongf ulen2 = clen;
	uint8_t *raw = malloc(clen);
	assert_int_equal(uncompress(raw, &ulen2, z, zlen), Z_OK);
	assert_int_equal(ulen2, clen);
	assert_memory_equal(raw, cols, clen);
	assert_true(zlen < clen / 2); /* it did compress: 1.09 MB -> 470 KB on tree-64k */
	free(raw);
	free(z);
	free(other);
	free(packed);
	free(back);
	free(text);
	free(cols);
	free(in);
	fold_trie_free(t);
}

/* Damage anywhere in a packed block is an error with its reason: bad
 * base64, a cut or corrupt zlib stream, columns past the bytes, a depth
 * below the root; never a crash (run under ASan). */
static void fold_embed_unpack_refuses_damage(void **state)
{
	(void)state;
	size_t len, plen;
	char *text = embed_text("main;a;b 5\nmain;c 3\nother 2\n", 0, &len), *packed, *back;
	assert_int_equal(fold_embed_pack(text, len, &packed, &plen), 0);
	struct uf_err err = { 0 };
	size_t ulen;
	char bad[256];
	assert_true(plen < sizeof bad);
	memcpy(bad, packed, plen);
	bad[3] = '<';
	assert_int_equal(fold_embed_unpack(bad, plen, &back, &ulen, &err), -EINVAL);
	assert_string_equal(err.why, "packed block is not base64");
	for (size_t cut = 4; cut + 4 <= plen; cut += 4) { /* whole groups, stream cut short */
		struct uf_err e = { 0 };
		assert_int_not_equal(fold_embed_unpack(packed, cut, &back, &ulen, &e), 0);
		assert_string_equal(e.why, "packed block is not a whole deflate stream");
	}
	memcpy(bad, packed, plen);
	bad[plen / 2] = bad[plen / 2] == 'A' ? 'B' : 'A'; /* a flipped bit: zlib's checks */
	struct uf_err e2 = { 0 };
	int rc = fold_embed_unpack(bad, plen, &back, &ulen, &e2);
	if (rc == 0) /* the adler-32 caught nothing: the text then differs */
		free(back);
	else
		assert_int_equal(e2.cls, UF_EINPUT);
	/* hand-made payloads: header says more nodes than the columns hold,
	 * a depth code that climbs above the root */
	static const char *payload[] = { "uf-trie/1 1 3 0 0\n\n\x00\x00", "uf-trie/1 1 2 0 0\n\n\x00\x05\x00\x00\n1\n1\nend\n" };
	static const size_t plens[] = { 21, 32 };
	for (size_t i = 0; i < 2; i++) {
		uLongf zlen = compressBound(plens[i]);
		uint8_t z[256];
		char b64[512];
		assert_int_equal(compress2(z, &zlen, (const uint8_t *)payload[i], plens[i], 1), Z_OK);
		size_t n = uf_base64_encode(z, zlen, b64, 0);
		struct uf_err e = { 0 };
		assert_int_equal(fold_embed_unpack(b64, n, &back, &ulen, &e), -EINVAL);
		assert_string_equal(e.why, "packed block is malformed");
	}
	free(text);
	free(packed);
}

static void fold_embed_budget_keeps_totals(void **state)
{
	(void)state;
	char *in = malloc(1 << 20);
	size_t n = 0;
	for (int i = 0; i < 2000; i++)
		n += (size_t)sprintf(in + n, "root;mid_%d;leaf_%d %d\n", i % 50, i, 1 + i % 7);
	struct fold_read_stats st = { 0 };
	fold_trie *t = parse(in, 0, &st);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write(t, f, 8192, &info), 0);
	fclose(f);
	assert_true(info.nodes_written < info.nodes_total);
	assert_true(len < 8192 * 2);
	fold_trie *u = fold_trie_new();
	struct uf_err err = { 0 };
	assert_int_equal(fold_embed_read(u, buf, len, &err), 0);
	assert_int_equal(fold_trie_finish(u), 0);
	assert_true(u->total[0] == t->total[0]);
	uint32_t mid = path(u, "root", "mid_0"); /* kept frames keep their totals */
	assert_int_not_equal(mid, FOLD_NONE);
	assert_true(u->total[mid] == t->total[path(t, "root", "mid_0")]);
	free(buf);
	free(in);
	fold_trie_free(t);
	fold_trie_free(u);
}

/* The columns writer comes within 1/16 of its budget, either side, when
 * the names are a large fixed cost (a pruned call tree keeps nearly every
 * name): 2000 long leaf names under each of 20 parents, 40,000 nodes,
 * pruned to half their bytes.  The writer before its refinement charged
 * every node the average bytes a node (names spread over all nodes):
 * here 182,640 bytes for 200,191 (9 % short); on tree-100k 1.38 MB for
 * 1.05 MB (32 % over, so render made its block twice). */
static void fold_embed_budget_counts_names_once(void **state)
{
	(void)state;
	char *in = malloc(4 << 20);
	size_t n = 0;
	for (int i = 0; i < 40000; i++)
		n += (size_t)sprintf(in + n, "root;mid_%d;a_rather_long_leaf_function_name_in_a_namespace_of_its_own_%d %d\n", i / 2000, i % 2000,
				     1 + (i * 7919) % 1000);
	struct fold_read_stats st = { 0 };
	fold_trie *t = parse(in, 0, &st);
	size_t full = 0, budget = 0;
	for (int pass = 0; pass < 2; pass++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		struct fold_embed_info info;
		assert_int_equal(fold_embed_write_columns(t, f, budget, &info), 0);
		fclose(f);
		if (pass == 0) {
			full = info.bytes;
			budget = full / 2;
		} else {
			assert_true(info.nodes_written < info.nodes_total);
			assert_true(info.bytes <= budget + budget / 16);
			assert_true(info.bytes >= budget - budget / 16);
		}
		free(buf);
	}
	assert_true(full > 200000);
	char *buf = NULL; /* a budget everything fits in (the estimate is above the bytes) prunes nothing */
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_embed_info info;
	assert_int_equal(fold_embed_write_columns(t, f, 2 * full, &info), 0);
	fclose(f);
	assert_int_equal(info.nodes_written, info.nodes_total);
	assert_true(info.min_total == 0);
	free(buf);
	free(in);
	fold_trie_free(t);
}

static void fold_merge_adds_counts(void **state)
{
	(void)state;
	struct fold_read_stats st = { 0 };
	fold_trie *a = parse("x;y 1\nx 2\n", 0, &st), *b = parse("x;y 3\nz 1\n", 0, &st);
	assert_int_equal(fold_trie_merge(a, b), 0);
	assert_int_equal(fold_trie_finish(a), 0);
	char *s = folded(a);
	assert_string_equal(s, "x 2\nx;y 4\nz 1\n");
	assert_int_equal(fold_trie_check(a), 0);
	free(s);
	fold_trie_free(a);
	fold_trie_free(b);
}

static void fold_format_count_is_exact_and_plain(void **state)
{
	(void)state;
	char buf[96];
	double vals[] = { 0, 1, 1.25, 0.1, 123456789012.0, 1e-7, 2.5e15, 1.0 / 3 };
	for (size_t i = 0; i < sizeof vals / sizeof vals[0]; i++) {
		fold_format_count(buf, sizeof buf, vals[i]);
		assert_null(strchr(buf, 'e'));
		assert_true(strtod(buf, NULL) == vals[i]);
	}
	fold_format_count(buf, sizeof buf, 1.25);
	assert_string_equal(buf, "1.25");
}

/* ---- the sorted reader (fold/sorted.c) against the streaming one ---- */

/* Reads text with the sorted path (an empty trie) and with the streaming
 * path (keep_sequence forces it); both must give the same folded text,
 * totals and statistics. */
static void same_as_streaming(const char *text, size_t len, struct fold_read_stats *out)
{
	fold_trie *a = fold_trie_new(), *b = fold_trie_new();
	assert_non_null(a);
	assert_non_null(b);
	fold_trie_keep_sequence(b);
	struct fold_read_opts o = { .label = "mem" };
	struct fold_read_stats sa = { 0 }, sb = { 0 };
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(a, text, len, &o, &sa, &err), 0);
	assert_int_equal(fold_read_folded_mem(b, text, len, &o, &sb, &err), 0);
	assert_int_equal(fold_trie_finish(a), 0);
	assert_int_equal(fold_trie_finish(b), 0);
	assert_int_equal(fold_trie_check(a), 0);
	assert_int_equal(fold_trie_check(b), 0);
	char *fa = folded(a), *fb = folded(b);
	assert_string_equal(fa, fb);
	assert_true(a->total[0] == b->total[0]);
	assert_int_equal(a->nnodes, b->nnodes);
	assert_int_equal(fold_trie_is_diff(a), fold_trie_is_diff(b));
	if (fold_trie_is_diff(a))
		assert_true(a->max_line_delta == b->max_line_delta);
	assert_int_equal(sa.lines, sb.lines);
	assert_int_equal(sa.bad, sb.bad);
	assert_int_equal(sa.truncated, sb.truncated);
	assert_string_equal(sa.first_bad, sb.first_bad);
	/* the (parent, name) index is built on first use and then agrees */
	uint32_t leaf = a->nnodes - 1;
	if (leaf)
		assert_int_equal(fold_trie_child(a, a->parent[leaf], a->name[leaf]), leaf);
	assert_int_equal(fold_trie_check(a), 0);
	if (out)
		*out = sa;
	free(fa);
	free(fb);
	fold_trie_free(a);
	fold_trie_free(b);
}

/* Issue 28 item 4: tables are keyed per process; the key may move names
 * and nodes between slots but never reach the output, and both readers
 * (the sorted one hashes while it scans) agree under any key. */
static void fold_output_does_not_depend_on_hash_key(void **state)
{
	(void)state;
	static const char text[] = "main;a;b 3\nmain;a;c 2\nmain;d 1\nx;y;z 4\nmain;a;b 1\n"
				   "\xff\xfe;long_name_of_more_than_eight_bytes;q 5\n";
	uint64_t saved = uf_hash_key;
	char *want = NULL;
	for (uint64_t key = 1; key < 6; key++) {
		uf_hash_key = key * 0x9e3779b97f4a7c15ull;
		same_as_streaming(text, sizeof text - 1, NULL);
		fold_trie *t = parse(text, 0, &(struct fold_read_stats){ 0 });
		char *got = folded(t);
		if (!want)
			want = got;
		else {
			assert_string_equal(got, want);
			free(got);
		}
		fold_trie_free(t);
	}
	uf_hash_key = saved;
	free(want);
}

static void fold_sorted_reader_small_cases(void **state)
{
	(void)state;
	/* prefixes of names and of stacks, "::" (sorts below ';'), empty
	 * frames, trailing ';', CRLF, duplicates, blank and bad lines */
	static const char *const texts[] = {
		"Foo 1\nFoo::bar 2\nFoo;x 3\nFoo:;y 4\nFoo;x;z 5\nFo 6\nFoo;x 7\n",
		"a;;b 1\n;a 2\na;b; 3\na;b;;; 4\n 5\n\n  \nbad\na;b 1.5\r\na;b 0\n",
		"b;a 1\na;b 1\na 1\nb 1\na;b;c 1\na;b 1\n",
		"a;b 1 2\na;c 3\na;b 4 4\nd 2 0\n",
		"",
		"",
		"\n\n",
		"a;\\x41 1\na;A 2\na;B\\x3bC 3\n", /* \xHH: two spellings, one name */
		" 5\n;; 2\n\t7\n", /* no frames at all: every count on the root (fuzz-folded) */
	};
	static const char nul[] = "x;\xff\x01;\x00;y 1\nx;\xff 2\nx 3\n"; /* a NUL in a name */
	for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
		same_as_streaming(i == 4 ? nul : texts[i], i == 4 ? sizeof nul - 1 : strlen(texts[i]),
				  NULL);
}

static int line_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* text's lines in byte order (a new buffer, freed by the caller): the
 * order of stackcollapse output, where each line shares most frames with
 * the one before (the sorted reader reuses them). */
static char *sorted_text(const char *text, size_t len)
{
	char *copy = malloc(len + 1), *out = malloc(len + 2), **line = malloc((len + 1) * sizeof *line);
	assert_non_null(copy);
	assert_non_null(out);
	assert_non_null(line);
	memcpy(copy, text, len);
	copy[len] = 0;
	size_t n = 0, at = 0;
	for (char *p = copy, *nl; *p; p = nl + 1) {
		line[n++] = p;
		if (!(nl = strchr(p, '\n')))
			break;
		*nl = 0;
	}
	qsort(line, n, sizeof *line, line_cmp);
	for (size_t i = 0; i < n; i++)
		at += (size_t)sprintf(out + at, "%s\n", line[i]);
	free(line);
	free(copy);
	return out;
}

/* fold_common_prefix (32, 8 then 1 byte at a time) against a byte loop:
 * every length to 100, the first difference at every place, at every
 * alignment, and bytes whose difference is in the high bit. */
static void fold_common_prefix_matches_bytes(void **state)
{
	(void)state;
	char a[140], b[140];
	for (size_t off = 0; off < 3; off++)
		for (size_t n = 0; n <= 100; n++)
			for (size_t at = 0; at <= n; at++) {
				for (size_t i = 0; i < sizeof a; i++)
					a[i] = b[i] = (char)(0x61 + (i * 7) % 26);
				if (at < n)
					b[off + at] = (char)(a[off + at] ^ (at % 2 ? 0x80 : 0x01));
				size_t want = 0;
				while (want < n && a[off + want] == b[off + want])
					want++;
				assert_int_equal(want, at);
				assert_int_equal(fold_common_prefix(a + off, b + off, n), want);
			}
}

/* The sorted reader's order of two stacks (no counts): frame by frame,
 * each name as its bytes then ';', a stack that ends first before the
 * longer (sort_lines); byte order differs ("b" before "b!" there, after
 * it here). */
static int frame_order_cmp(const void *pa, const void *pb)
{
	const char *x = *(char *const *)pa, *y = *(char *const *)pb;
	for (;;) {
		size_t nx = strcspn(x, ";"), ny = strcspn(y, ";"), m = nx < ny ? nx : ny;
		int c = memcmp(x, y, m);
		if (c)
			return c;
		if (nx != ny) {
			unsigned cx = nx > m ? (unsigned char)x[m] : ';', cy = ny > m ? (unsigned char)y[m] : ';';
			return cx < cy ? -1 : 1;
		}
		int ex = x[nx] == 0, ey = y[ny] == 0;
		if (ex || ey)
			return ex && ey ? 0 : ex ? -1 : 1;
		x += nx + 1;
		y += ny + 1;
	}
}

/* Lines already in that order are not sorted again (a real capture's
 * collapsed stacks come sorted): the trie is the streaming reader's all
 * the same, and any line out of order, or one the check cannot judge (an
 * empty stack after others, a line made bad by a long frame, a cut
 * stack), sorts them. */
static void fold_sorted_reader_keeps_lines_in_order(void **state)
{
	(void)state;
	static const struct {
		const char *text;
		int in_order;
	} cases[] = {
		{ "a;b!;c 2\na;b 1\na;b;d 1\n", 1 },       /* "b!;" < "b;": not byte order */
		{ "a;b 1\na;b!;c 2\na;b;d 1\n", 0 },       /* byte order */
		{ "a;foo2 1\na;foo 1\na;foo;x 1\n", 1 },
		{ "a;foo 1\na;foo2 1\n", 0 },
		{ "a 1\na;b 2\na;b 3\na;c 1\nb 1\n", 1 }, /* equal stacks stay in order */
		{ " 5\na 1\n", 1 },                          /* the empty stack first */
		{ "a 1\n 5\n", 0 },
		{ "a;b 1\nnot a line\na;c 2\n", 1 },        /* a bad line is skipped */
		{ "a;\xff 1\na;b 1\n", 0 },                 /* bytes compare unsigned */
		{ "a;b 1\na;\xff 1\n", 1 },
		{ "a;b 1 2\na;c 3 1\n", 1 },                 /* two columns */
		{ "x;y 1\na;b 1\n", 0 },
		/* out of order late: what the lines before made is undone (a
		 * BEFORE column, a bad line's number, the root's own count) */
		{ "a;b 1 2\na;c 3 1\nnot a line\na 1\n", 0 },
		{ " 4\na;b 1 2\nx 1\nnot a line\na 2\n", 0 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fold_read_stats st;
		same_as_streaming(cases[i].text, strlen(cases[i].text), &st);
		if (st.in_order != cases[i].in_order)
			fail_msg("case %zu: in_order %d", i, st.in_order);
	}
	/* random stacks over names that are prefixes of each other, with
	 * bytes below and above ';', 0xff and a space: every pair of lines in
	 * the order above reads in order, and swapping one pair does not */
	static const char *const names[] = { "b", "b!", "b2", "b:", "b.x", "b c", "b\xff", "c", "", "b<" };
	enum { LINES = 400 };
	char *line[LINES];
	uint64_t r = 7;
	for (int round = 0; round < 20; round++) {
		for (int l = 0; l < LINES; l++) {
			char buf[128];
			size_t len = 0;
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			int depth = 1 + (int)((r >> 33) % 4);
			for (int d = 0; d < depth; d++) {
				r = r * 6364136223846793005ull + 1442695040888963407ull;
				const char *nm = names[(r >> 35) % (sizeof names / sizeof names[0])];
				if (d > 0 && d + 1 == depth && !*nm) /* a trailing ';' is dropped: */
					nm = "c";                     /* "b;" is the stack "b" */
				len += (size_t)snprintf(buf + len, sizeof buf - len, "%s%s", d ? ";" : "", nm);
			}
			line[l] = strdup(buf);
			assert_non_null(line[l]);
		}
		qsort(line, LINES, sizeof *line, frame_order_cmp);
		size_t cap = LINES * 140, len = 0;
		char *text = malloc(cap);
		assert_non_null(text);
		int swap = -1; /* round > 0: one pair of unequal lines swapped */
		for (int l = 1 + (int)((r >> 20) % (LINES - 1)), k = 0; round > 0 && swap < 0 && k < LINES;
		     k++, l = l % (LINES - 1) + 1)
			if (frame_order_cmp(&line[l - 1], &line[l]) < 0)
				swap = l;
		for (int l = 0; l < LINES; l++) {
			int at = l == swap ? l - 1 : l == swap - 1 ? swap : l;
			len += (size_t)snprintf(text + len, cap - len, "%s %d\n", line[at], l % 5 + 1);
		}
		struct fold_read_stats st;
		same_as_streaming(text, len, &st);
		assert_int_equal(st.in_order, swap < 0);
		free(text);
		for (int l = 0; l < LINES; l++)
			free(line[l]);
	}
}

/* fold_trie_lookup_names (the sorted reader's merge of its second lane's
 * names): each of u's names in a range gets t's id, FOLD_NONE where t
 * lacks it, with no name added to t; ranges that are not a multiple of
 * its batch of 16, and names long and short. */
static void fold_lookup_names_finds_each_or_none(void **state)
{
	(void)state;
	fold_trie *t = fold_trie_new(), *u = fold_trie_new();
	assert_non_null(t);
	assert_non_null(u);
	char name[64];
	for (int i = 0; i < 3000; i++) { /* t: the even ones, u: every third */
		int len = snprintf(name, sizeof name, i % 5 ? "n%d" : "a_longer_name_number_%d", i);
		if (i % 2 == 0)
			assert_int_not_equal(fold_trie_intern(t, name, (size_t)len), FOLD_NONE);
		if (i % 3 == 0)
			assert_int_not_equal(fold_trie_intern(u, name, (size_t)len), FOLD_NONE);
	}
	uint32_t tn = t->nnames, lo = 7, hi = u->nnames - 3;
	uint32_t *map = malloc((hi - lo) * sizeof *map);
	assert_non_null(map);
	fold_trie_lookup_names(t, u, lo, hi, map);
	assert_int_equal(t->nnames, tn);
	uint32_t found = 0;
	for (uint32_t i = lo; i < hi; i++) {
		size_t len, tlen;
		const char *s = fold_trie_name(u, i, &len);
		int num = atoi(s[0] == 'n' ? s + 1 : s + strlen("a_longer_name_number_"));
		if (num % 2 == 0) {
			assert_int_not_equal(map[i - lo], FOLD_NONE);
			const char *ts = fold_trie_name(t, map[i - lo], &tlen);
			assert_int_equal(tlen, len);
			assert_memory_equal(ts, s, len);
			found++;
		} else {
			assert_int_equal(map[i - lo], FOLD_NONE);
		}
	}
	assert_true(found > 400); /* numbers divisible by 6 in the range */
	free(map);
	fold_trie_free(t);
	fold_trie_free(u);
}

/* Random lines from a small alphabet of names, so stacks share prefixes
 * at every depth; big enough that both cores index, sort and build. */
static void fold_sorted_reader_two_threads(void **state)
{
	(void)state;
	static const char *const names[] = { "a", "ab", "a b", "Foo", "Foo::x", "Foo:", "f;", "",
					     "zz", "\xc3\xa9t\xc3\xa9", "<&>" };
	size_t cap = 4u << 20, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	uint64_t r = 42;
	for (int line = 0; line < 60000; line++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		int depth = 1 + (int)((r >> 33) % 12);
		for (int d = 0; d < depth; d++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			const char *n = names[(r >> 35) % (sizeof names / sizeof names[0])];
			len += (size_t)snprintf(text + len, cap - len, "%s%s", d ? ";" : "", n);
		}
		int two = (r >> 20) % 7 == 0;
		len += (size_t)snprintf(text + len, cap - len, two ? " %u %u\n" : " %u\n",
					(unsigned)(r >> 40) % 100, (unsigned)(r >> 48) % 50);
		if (line % 9999 == 5) /* a bad line now and then */
			len += (size_t)snprintf(text + len, cap - len, "x;y z\n");
	}
	assert_true(len > (1u << 20));
	struct fold_read_stats st;
	same_as_streaming(text, len, &st);
	assert_int_equal(st.bad, 7);
	assert_string_equal(st.first_bad, "mem:7");
	char *sorted = sorted_text(text, len); /* frames reused from line to line */
	same_as_streaming(sorted, strlen(sorted), &st);
	assert_int_equal(st.bad, 7);
	free(sorted);
	free(text);
}

/* The line sort packs four frames a key below 65535 names and two from
 * there (fold/in/sorted.c, fill_frames4): both sides of the line, with
 * stacks of every length mod 4 that share prefixes of every length, and
 * the names ranked lowest (a rank of 0 must not read as a stack's end)
 * at every position.  Wrong keys leave equal stacks apart, so the
 * sorted reader makes two nodes of one call path. */
static void fold_sorted_reader_many_names(void **state)
{
	(void)state;
	static const unsigned counts[] = { 60000, 65533, 65534, 65535, 70000 };
	for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
		unsigned names = counts[c];
		size_t cap = 16u << 20, len = 0;
		char *text = malloc(cap);
		assert_non_null(text);
		uint64_t r = 11 + c;
		for (unsigned line = 0; line < names + 20000; line++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			unsigned depth = 1 + (unsigned)((r >> 33) % 11);
			for (unsigned d = 0; d < depth; d++) {
				r = r * 6364136223846793005ull + 1442695040888963407ull;
				/* every name once as a leaf; above, a few names: shared
				 * prefixes, "A" and "B" (the lowest ranks) among them */
				unsigned nm = d + 1 == depth && line < names ? line : (unsigned)(r >> 40) % 6;
				len += (size_t)snprintf(text + len, cap - len, "%s%c%u", d ? ";" : "",
							nm < 6 ? 'A' + (char)nm : 'n', nm < 6 ? 0 : nm);
			}
			len += (size_t)snprintf(text + len, cap - len, " %u\n", (unsigned)(r >> 50) % 9 + 1);
		}
		same_as_streaming(text, len, NULL);
		free(text);
	}
}

/* Over-long frames make a line bad; stacks past FOLD_MAX_DEPTH are cut. */
static void fold_sorted_reader_caps(void **state)
{
	(void)state;
	size_t cap = (FOLD_MAX_NAME + 10) * 2 + (FOLD_MAX_DEPTH + 10) * 6 + 100, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len, "ok;a 1\nok;");
	memset(text + len, 'n', FOLD_MAX_NAME + 1);
	len += FOLD_MAX_NAME + 1;
	len += (size_t)snprintf(text + len, cap - len, " 1\n");
	for (int d = 0; d < FOLD_MAX_DEPTH + 5; d++)
		len += (size_t)snprintf(text + len, cap - len, "%sd%d", d ? ";" : "", d % 3);
	len += (size_t)snprintf(text + len, cap - len, " 2\nd0;d1 1\n");
	struct fold_read_stats st;
	same_as_streaming(text, len, &st);
	assert_int_equal(st.bad, 1);
	assert_string_equal(st.first_bad, "mem:2");
	assert_int_equal(st.truncated, 1);
	free(text);
}

/* A big pre-order trie (the sorted reader's) is finished on two threads:
 * totals summed in the same order, so equal to the bit, and the same
 * entries, as the one-thread pass gives (fractional counts, chains of
 * ancestors across the cut, nodes with both own samples and children). */
static void fold_finish_two_threads_same_as_one(void **state)
{
	(void)state;
	size_t cap = 16u << 20, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	uint64_t r = 7;
	for (int line = 0; line < 40000; line++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		int depth = 1 + (int)((r >> 33) % 30);
		for (int d = 0; d < depth; d++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			/* few names near the root, many below: long shared trunks */
			unsigned k = (unsigned)(r >> 40) % (d < 3 ? 3u : 60u);
			len += (size_t)snprintf(text + len, cap - len, "%sf%u", d ? ";" : "", k);
		}
		len += (size_t)snprintf(text + len, cap - len, " %u.%03u\n", (unsigned)(r >> 20) % 9,
					(unsigned)(r >> 8) % 1000);
	}
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	struct fold_read_opts o = { .label = "mem" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(t, text, len, &o, &st, &err), 0);
	assert_true(t->preorder);
	assert_true(t->nnodes >= 65536 * 2); /* over the two-thread threshold */
	assert_int_equal(fold_trie_finish(t), 0);
	uint32_t n = t->nnodes, m = t->eoff[n];
	double *total = malloc(n * sizeof *total);
	uint32_t *eoff = malloc((n + 1) * sizeof *eoff), *ent = malloc(m * sizeof *ent);
	assert_non_null(total);
	assert_non_null(eoff);
	assert_non_null(ent);
	memcpy(total, t->total, n * sizeof *total);
	memcpy(eoff, t->eoff, (n + 1) * sizeof *eoff);
	memcpy(ent, t->ent, m * sizeof *ent);
	uint32_t maxdepth = t->maxdepth;
	assert_int_equal(maxdepth, 30); /* no depth is stored: the reader's longest line */
	t->preorder = 0; /* the one-thread pass */
	t->finished = 0;
	assert_int_equal(fold_trie_finish(t), 0);
	assert_int_equal(t->maxdepth, maxdepth);
	assert_memory_equal(total, t->total, n * sizeof *total);
	assert_memory_equal(eoff, t->eoff, (n + 1) * sizeof *eoff);
	assert_memory_equal(ent, t->ent, m * sizeof *ent);
	assert_int_equal(fold_trie_check(t), 0);
	free(total);
	free(eoff);
	free(ent);
	free(text);
	fold_trie_free(t);
}

/* Writes t to memory: the text, its length and the writer's result. */
static char *write_folded_mem(const fold_trie *t, size_t *len, int *rc)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	assert_non_null(f);
	*rc = fold_write_folded(t, f);
	fclose(f);
	return buf;
}

/* Writes t as a pre-order trie (two threads, walked by ids) and as any
 * trie (one thread, walked by entries): the same bytes and result. */
static char *write_both_ways(fold_trie *t, size_t *len, int *rc)
{
	size_t n2;
	int rc2;
	assert_true(t->preorder);
	char *two = write_folded_mem(t, len, rc);
	t->preorder = 0;
	char *one = write_folded_mem(t, &n2, &rc2);
	t->preorder = 1;
	assert_int_equal(*rc, rc2);
	if (*rc == 0) {
		assert_int_equal(*len, n2);
		assert_memory_equal(two, one, n2);
	}
	free(one);
	return two;
}

/* Folded text for the writer's test: stacks from a few names near the
 * root and many below, names that end like a count ("x 5"), every
 * 10000th line ~90 KB long (three 30 KB names); one count column, or
 * two when diff.  No backslash (the sorted reader's pre-order trie).
 * Returns an owned buffer. */
static char *writer_text(int diff, size_t *len)
{
	static const char *const names[] = { "a", "ab", "a b", "f_g", "n_", "x 5",
					     "y 1.5", "Foo::x", "zz", "<&>", "q", "r" };
	size_t cap = 24u << 20;
	char *text = malloc(cap), *big = malloc(30001);
	assert_non_null(text);
	assert_non_null(big);
	memset(big, 'B', 30000);
	memcpy(big, "f_", 2); /* escaped too, once "f_" becomes "f;" */
	big[30000] = 0;
	uint64_t r = 11;
	*len = 0;
	for (int line = 0; line < 50000; line++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		int depth = 1 + (int)((r >> 33) % 24);
		for (int d = 0; d < depth; d++) {
			r = r * 6364136223846793005ull + 1442695040888963407ull;
			unsigned k = (unsigned)(r >> 40) % (d < 2 ? 3u : 12u);
			*len += (size_t)snprintf(text + *len, cap - *len, "%s%s%u", d ? ";" : "",
						 names[k], d < 4 ? k : (unsigned)(r >> 50) % 40);
		}
		if (line % 10000 == 3)
			for (int b = 0; b < 3; b++)
				*len += (size_t)snprintf(text + *len, cap - *len, ";%s%d", big, b);
		if (line % 7 == 1) /* "name 5": rule 3's closing ';' */
			*len += (size_t)snprintf(text + *len, cap - *len, ";x %d;", line % 4);
		*len += (size_t)snprintf(text + *len, cap - *len, diff ? " %u %u\n" : " %u\n",
					 (unsigned)(r >> 20) % 50, (unsigned)(r >> 8) % 9);
	}
	free(big);
	return text;
}

/* The folded writer cuts a big pre-order trie into tasks formatted on
 * two threads and written in order, walked by ids: the bytes equal the
 * one-thread walk by entries, for one and two count columns, lines
 * longer than a write block and count-like names; the text reads back
 * as the same trie; a count no text can carry (late in the walk, then
 * early) is the same -ERANGE either way; names that need escaping (made
 * by changing bytes of names in place: the sorted reader never sees a
 * backslash) are escaped the same way. */
static void fold_writer_two_threads_same_as_one(void **state)
{
	(void)state;
	for (int diff = 0; diff < 2; diff++) {
		size_t len, wlen, blen;
		int rc;
		char *text = writer_text(diff, &len);
		fold_trie *t = fold_trie_new(), *back = fold_trie_new();
		assert_non_null(t);
		assert_non_null(back);
		struct fold_read_opts o = { .label = "mem" };
		struct fold_read_stats st = { 0 };
		struct uf_err err = { 0 };
		assert_int_equal(fold_read_folded_mem(t, text, len, &o, &st, &err), 0);
		assert_int_equal(st.bad, 0);
		assert_true(t->nnodes >= 65536 * 2); /* over the two-thread threshold */
		assert_int_equal(fold_trie_finish(t), 0);
		char *w = write_both_ways(t, &wlen, &rc);
		assert_int_equal(rc, 0);
		assert_true(wlen > (2u << 20)); /* many blocks and tasks */
		assert_int_equal(fold_read_folded_mem(back, w, wlen, &o, &st, &err), 0);
		assert_int_equal(fold_trie_finish(back), 0);
		char *again = write_folded_mem(back, &blen, &rc);
		assert_int_equal(rc, 0);
		assert_int_equal(blen, wlen);
		assert_memory_equal(again, w, wlen);
		free(again);
		free(w);
		/* a leaf always has a line of its own: the last node, then the
		 * first leaf a third of the way */
		uint32_t at = t->nnodes - 1;
		for (int pass = 0; pass < 2; pass++) {
			double keep = t->self[at];
			t->self[at] = 1e-70;
			free(write_both_ways(t, &wlen, &rc));
			assert_int_equal(rc, -ERANGE);
			t->self[at] = keep;
			for (at = t->nnodes / 3; t->eoff[at] != t->eoff[at + 1]; at++)
				;
		}
		for (uint32_t id = 0; id < t->nnames; id++) { /* "f_g" -> "f;g", "n_" -> "n\n" */
			char *nm = t->nbuf + t->noff[id];
			if (nm[0] == 'f' && nm[1] == '_')
				nm[1] = ';';
			if (nm[0] == 'n' && nm[1] == '_')
				nm[1] = '\n';
		}
		w = write_both_ways(t, &wlen, &rc);
		assert_int_equal(rc, 0);
		assert_non_null(memmem(w, wlen, "f\\x3bg", 6));
		assert_non_null(memmem(w, wlen, "n\\x0a", 5));
		free(w);
		assert_int_equal(fold_trie_check(t), 0);
		fold_trie_free(back);
		fold_trie_free(t);
		free(text);
	}
	/* A backslash sends the input to the streaming reader: ids in input
	 * order, not pre-order.  Flagged pre-order anyway, the walk by ids
	 * meets other children than it expects and hands over to the walk
	 * by entries; the tasks' sizes are wrong, not their order: the same
	 * bytes. */
	size_t len, wlen;
	int rc;
	char *text = writer_text(0, &len);
	len += (size_t)sprintf(text + len, "a0;q\\x41 3\n");
	fold_trie *t = fold_trie_new();
	assert_non_null(t);
	struct fold_read_opts o = { .label = "mem" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(t, text, len, &o, &st, &err), 0);
	assert_false(t->preorder);
	assert_int_equal(fold_trie_finish(t), 0);
	t->preorder = 1;
	free(write_both_ways(t, &wlen, &rc));
	assert_int_equal(rc, 0);
	assert_int_equal(fold_trie_check(t), 0);
	fold_trie_free(t);
	free(text);
}

/* Library shares (fold/libshare.c: record's table, the SVG's panel and
 * legend): a library's total counts a sample once however often the
 * library is on its stack (app -> libA -> app callback -> libA), rows most
 * self first, equal self by library name whatever order the names were
 * interned in (a profile read back from its SVG interns them in another:
 * the rows, and the SVG's panel, must not swap). */
static void fold_lib_shares_count_each_sample_once(void **state)
{
	(void)state;
	fold_trie *t = parse("main;a1;cb;a2 5\nmain;b 3\nmain;c 3\nmain 2\nmain;a1 1\n", 0,
			     &(struct fold_read_stats){ 0 });
	static const char *lib[][2] = { { "main", "app" }, { "cb", "app" }, { "a1", "libA" },
					{ "a2", "libA" }, { "c", "libC" }, { "b", "libB" } };
	for (size_t i = 0; i < sizeof lib / sizeof lib[0]; i++)
		assert_int_equal(fold_trie_set_lib(t, fold_trie_intern(t, lib[i][0], strlen(lib[i][0])),
						   lib[i][1], strlen(lib[i][1])), 0);
	struct fold_lib_share *rows;
	uint32_t n;
	assert_int_equal(fold_lib_shares(t, &rows, &n), 0);
	assert_int_equal(n, 4);
	const char *want[] = { "libA", "libB", "libC", "app" };   /* libC interned before libB */
	const double self[] = { 6, 3, 3, 2 }, total[] = { 6, 3, 3, 14 };
	for (uint32_t i = 0; i < n; i++) {
		size_t len;
		const char *name = fold_trie_name(t, rows[i].lib, &len);
		assert_int_equal(len, strlen(want[i]));
		assert_memory_equal(name, want[i], len);
		assert_true(rows[i].self == self[i]);
		assert_true(rows[i].total == total[i]);
	}
	free(rows);
	fold_trie_free(t);
}

/* A waiting sample's state pseudo-frame is not a function: its count is
 * its parent's library's self (fold/model/libshare.c invariant 4), as the
 * test's share() and `fold --by=lib` see it; the CI run of session 8 saw
 * the table and the SVG disagree by 0.3 points on a loaded machine. */
static void fold_lib_shares_give_state_frames_to_their_parent(void **state)
{
	(void)state;
	fold_trie *t = parse("main;a 4\nmain;a;[runnable] 3\nmain;[blocked] 2\nmain 1\n", 0,
			     &(struct fold_read_stats){ 0 });
	assert_int_equal(fold_trie_set_lib(t, fold_trie_intern(t, "main", 4), "app", 3), 0);
	assert_int_equal(fold_trie_set_lib(t, fold_trie_intern(t, "a", 1), "libA", 4), 0);
	struct fold_lib_share *rows;
	uint32_t n;
	assert_int_equal(fold_lib_shares(t, &rows, &n), 0);
	assert_int_equal(n, 2);
	size_t len;
	assert_memory_equal(fold_trie_name(t, rows[0].lib, &len), "libA", 4);
	assert_true(rows[0].self == 7 && rows[0].total == 7);
	assert_memory_equal(fold_trie_name(t, rows[1].lib, &len), "app", 3);
	assert_true(rows[1].self == 3 && rows[1].total == 10);
	free(rows);
	fold_trie_free(t);
}

/* fold_embed_encode on an odd length of 256 KiB or more (issue 31 item
 * 11, when the block was two halves whose Adler-32s combined): zlib's
 * own uncompress checks the stream and its checksum. */
static void embed_encode_odd_length(void **state)
{
	size_t n = (256u << 10) + 12345; /* odd */
	char *cols = malloc(n);
	assert_non_null(cols);
	uint64_t r = 3;
	for (size_t i = 0; i < n; i++) {
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		cols[i] = (char)('a' + (r >> 59) % 8);
	}
	char *packed;
	size_t plen;
	assert_int_equal(fold_embed_encode(cols, n, 0, &packed, &plen), 0);
	uint8_t *z = malloc(plen);
	long long zl = uf_base64_decode(packed, plen, z);
	assert_true(zl > 0);
	uLongf ulen = n;
	uint8_t *raw = malloc(n);
	assert_int_equal(uncompress(raw, &ulen, z, (uLong)zl), Z_OK);
	assert_int_equal(ulen, n);
	assert_memory_equal(raw, cols, n);
	free(raw);
	free(z);
	free(packed);
	free(cols);
}

/* Below 64 KiB of columns the block is stored, not deflated (a small
 * render's deflate cost more than its parse saves): the zlib stream is
 * the columns plus 11 bytes (header, one stored block's 5, Adler-32), and
 * zlib's uncompress gives them back, checksum checked.  With a budget the
 * stored block would pass, it is deflated instead, within it. */
static void embed_encode_small_is_stored(void **state)
{
	(void)state;
	static const size_t sizes[] = { 0, 1, 4095, 19850, (64u << 10) - 1 };
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		size_t n = sizes[i];
		char *cols = malloc(n + 1);
		assert_non_null(cols);
		for (size_t k = 0; k < n; k++)
			cols[k] = (char)("0123 fn;\n"[k % 10]);
		char *packed;
		size_t plen;
		assert_int_equal(fold_embed_encode(cols, n, 0, &packed, &plen), 0);
		uint8_t *z = malloc(plen + 1);
		long long zl = uf_base64_decode(packed, plen, z);
		assert_int_equal(zl, (long long)n + 11);
		uLongf ulen = n + 1;
		uint8_t *raw = malloc(n + 1);
		assert_int_equal(uncompress(raw, &ulen, z, (uLong)zl), Z_OK);
		assert_int_equal(ulen, n);
		assert_memory_equal(raw, cols, n);
		free(packed);
		if (n >= 4095) { /* a budget of half the columns: deflated, within it */
			assert_int_equal(fold_embed_encode(cols, n, n / 2, &packed, &plen), 0);
			assert_true(plen <= n / 2);
			zl = uf_base64_decode(packed, plen, z);
			ulen = n + 1;
			assert_int_equal(uncompress(raw, &ulen, z, (uLong)zl), Z_OK);
			assert_int_equal(ulen, n);
			assert_memory_equal(raw, cols, n);
			free(packed);
		}
		free(raw);
		free(z);
		free(cols);
	}
}

static void *split_part1(void *s)
{
	fold_embed_split_part(s, 1);
	return NULL;
}

/* From FOLD_EMBED_SPLIT_FROM the deflate is two parts joined (part 0's
 * last block made non-final, an empty stored block to align it): the
 * stream inflates to the columns with zlib's uncompress (Adler-32
 * checked), and part 1 made on a second thread, at once with part 0,
 * gives the same bytes as fold_embed_encode on one.  Lengths are tried
 * until both ways of aligning have been seen: the stored header in part
 * 0's last byte (3 unused bits or more) and in a byte of its own. */
static void embed_encode_split_is_one_stream(void **state)
{
	(void)state;
	size_t max = (512u << 10) + 4096;
	char *cols = malloc(max);
	assert_non_null(cols);
	uint64_t r = 7;
	for (size_t i = 0; i < max; i++) { /* text-like: runs deflate finds and literals it codes */
		r = r * 6364136223846793005ull + 1442695040888963407ull;
		cols[i] = (r >> 60) < 3 ? (char)('a' + (r >> 40) % 26) : cols[i >= 40 ? i - 40 + (r >> 56) % 7 : i / 2];
	}
	uint8_t *z = malloc(max * 2), *raw = malloc(max);
	int seen[2] = { 0, 0 };
	for (size_t n = FOLD_EMBED_SPLIT_FROM; n <= max && !(seen[0] && seen[1]); n += 1531) {
		char *one, *two;
		size_t olen, tlen;
		assert_int_equal(fold_embed_encode(cols, n, 0, &one, &olen), 0);
		struct fold_embed_split s;
		assert_int_equal(fold_embed_split_init(&s, cols, n, 0), 1);
		pthread_t th;
		assert_int_equal(pthread_create(&th, NULL, split_part1, &s), 0);
		fold_embed_split_part(&s, 0);
		pthread_join(th, NULL);
		seen[s.unused_bits >= 3]++;
		assert_int_equal(fold_embed_split_finish(&s, &two, &tlen), 0);
		assert_int_equal(tlen, olen);
		assert_memory_equal(two, one, olen);
		long long zl = uf_base64_decode(one, olen, z);
		assert_true(zl > 0);
		uLongf ulen = max;
		assert_int_equal(uncompress(raw, &ulen, z, (uLong)zl), Z_OK);
		assert_int_equal(ulen, n);
		assert_memory_equal(raw, cols, n);
		free(one);
		free(two);
	}
	assert_true(seen[0] && seen[1]);
	struct fold_embed_split s; /* below the split: one libdeflate call */
	assert_int_equal(fold_embed_split_init(&s, cols, FOLD_EMBED_SPLIT_FROM - 1, 0), 0);
	free(raw);
	free(z);
	free(cols);
}

/* Columns of 1 GiB or more are refused before any work (no reader takes
 * them): -EFBIG, which render words as a clear error, and no block. */
static void embed_encode_refuses_past_reader_cap(void **state)
{
	(void)state;
	char one = 'x';
	char *packed = (char *)&one;
	size_t plen = 7;
	assert_int_equal(fold_embed_encode(&one, FOLD_EMBED_MAX_UNPACKED, 0, &packed, &plen), -EFBIG);
	assert_null(packed);
}

/* fold_sort_names against the plain definition: rank[2*id + t] is the
 * position of name id + (t ? ";" : " ") among all 2n such strings in byte
 * order, a prefix first.  Names are grown from each other (chains of
 * prefixes) with next bytes on both sides of ' ' and ';' ('\t', '!', '0',
 * ':', '<', 'A'), where placing the terminators after a bare sort could
 * go wrong. */
struct sn_key {
	char s[64];
	size_t len;
	uint32_t idx;
};

static int sn_cmp(const void *a, const void *b)
{
	const struct sn_key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

static void sort_names_matches_definition(void **state)
{
	(void)state;
	static const char next[] = "\t !(0:;<A_z";
	for (int round = 0; round < 20; round++) {
		fold_trie *t = fold_trie_new();
		assert_non_null(t);
		uint32_t seed = 12345u + (uint32_t)round;
		char name[40];
		for (int i = 0; i < 300; i++) {
			uint32_t from = (seed = seed * 1103515245u + 12345u) >> 16;
			size_t len = 0;
			if (t->nnames > 1 && from % 4) { /* grow a name we have */
				size_t l;
				const char *p = fold_trie_name(t, from % t->nnames, &l);
				len = l < 30 ? l : 30;
				memcpy(name, p, len);
			}
			int more = 1 + (int)((seed >> 8) % 3);
			for (int m = 0; m < more; m++) {
				seed = seed * 1103515245u + 12345u;
				char c = next[(seed >> 16) % (sizeof next - 1)];
				name[len++] = c == ';' ? 'q' : c; /* no ';' inside a name */
			}
			assert_int_not_equal(fold_trie_intern(t, name, len), FOLD_NONE);
		}
		size_t n = t->nnames;
		uint32_t *rank = malloc(2 * n * sizeof *rank);
		struct sn_key *k = malloc(2 * n * sizeof *k);
		assert_non_null(rank);
		assert_non_null(k);
		assert_int_equal(fold_sort_names(t, rank), 0);
		for (size_t i = 0; i < 2 * n; i++) {
			size_t l;
			const char *p = fold_trie_name(t, (uint32_t)(i / 2), &l);
			memcpy(k[i].s, p, l);
			k[i].s[l] = i & 1 ? ';' : ' ';
			k[i].len = l + 1;
			k[i].idx = (uint32_t)i;
		}
		qsort(k, 2 * n, sizeof *k, sn_cmp);
		for (size_t i = 0; i < 2 * n; i++)
			assert_int_equal(rank[k[i].idx], i);
		free(rank);
		free(k);
		fold_trie_free(t);
	}
}

/* fold_sort_keys against qsort: stacks of 32-bit units, two a chunk as
 * (unit + 1) << 32 | (next + 1), 0 past the end (the sorted reader's
 * chunks, with ranks the identity).  30000 keys over a 3-unit alphabet,
 * grown from each other (shared prefixes, prefixes of each other, equal
 * keys): the radix passes (over 2048 keys), the skip of shared chunks
 * and the two threads (from 20000 keys) all run; equal keys must keep
 * their input order (the oracle breaks ties by index). */
struct sk_key {
	const uint32_t *u;
	uint32_t len, idx;
};

static int sk_cmp(const void *a, const void *b)
{
	const struct sk_key *x = a, *y = b;
	uint32_t n = x->len < y->len ? x->len : y->len;
	for (uint32_t i = 0; i < n; i++)
		if (x->u[i] != y->u[i])
			return x->u[i] < y->u[i] ? -1 : 1;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return (x->idx > y->idx) - (x->idx < y->idx);
}

static void sk_fill(const struct fold_key_chunks *ch, struct fold_key *k, size_t m, uint32_t c)
{
	(void)ch;
	size_t off = (size_t)c * 2;
	for (size_t i = 0; i < m; i++) {
		const uint32_t *u = k[i].p;
		uint64_t a = off < k[i].len ? u[off] + 1ull : 0;
		uint64_t b = off + 1 < k[i].len ? u[off + 1] + 1ull : 0;
		k[i].key = a << 32 | b;
	}
}

static void sort_keys_matches_qsort(void **state)
{
	(void)state;
	enum { N = 30000, MAXLEN = 48 };
	uint32_t *units = malloc((size_t)N * MAXLEN * sizeof *units);
	struct fold_key *k = malloc(N * sizeof *k), *tmp = malloc(N * sizeof *tmp);
	struct sk_key *o = malloc(N * sizeof *o);
	assert_true(units && k && tmp && o);
	uint32_t seed = 777;
	for (uint32_t i = 0; i < N; i++) {
		uint32_t *u = units + (size_t)i * MAXLEN, len = 0;
		seed = seed * 1103515245u + 12345u;
		if (i > 0 && (seed >> 16) % 8) { /* grow or cut a key we have */
			const struct sk_key *from = &o[(seed >> 8) % i];
			len = from->len ? (seed >> 4) % (from->len + 1) : 0;
			memcpy(u, from->u, len * sizeof *u);
		}
		uint32_t more = (seed >> 20) % 6;
		for (uint32_t m = 0; m < more && len < MAXLEN; m++) {
			seed = seed * 1103515245u + 12345u;
			u[len++] = (seed >> 16) % 3 * 0x7fffffffu; /* 0, 2^31 - 1, 2^32 - 2 */
		}
		o[i] = (struct sk_key){ u, len, i };
		k[i] = (struct fold_key){ 0, u, len, i };
	}
	struct fold_key_chunks ch = { sk_fill, NULL, 4, 2, 0xffffffffu };
	fold_sort_keys(&ch, k, tmp, N);
	qsort(o, N, sizeof *o, sk_cmp);
	for (uint32_t i = 0; i < N; i++) {
		assert_int_equal(k[i].idx, o[i].idx);
		assert_ptr_equal(k[i].p, o[i].u);
		assert_int_equal(k[i].len, o[i].len);
	}
	free(units);
	free(k);
	free(tmp);
	free(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold_parses_counts_like_flamegraph_pl),
		cmocka_unit_test(fold_second_column_makes_a_differential),
		cmocka_unit_test(fold_reverse_flips_stacks),
		cmocka_unit_test(fold_writer_order_matches_byte_sort),
		cmocka_unit_test(fold_prefix_reuse_is_exact),
		cmocka_unit_test(fold_caps_depth),
		cmocka_unit_test(fold_embed_round_trip),
		cmocka_unit_test(fold_embed_rejects_corrupt_blocks),
		cmocka_unit_test(fold_embed_budget_keeps_totals),
		cmocka_unit_test(fold_embed_budget_counts_names_once),
		cmocka_unit_test(fold_embed_keeps_sequence),
		cmocka_unit_test(fold_embed_pack_round_trip),
		cmocka_unit_test(fold_embed_large_is_one_zlib_stream),
		cmocka_unit_test(fold_embed_unpack_refuses_damage),
		cmocka_unit_test(fold_merge_adds_counts),
		cmocka_unit_test(fold_format_count_is_exact_and_plain),
		cmocka_unit_test(fold_sorted_reader_small_cases),
		cmocka_unit_test(fold_sorted_reader_two_threads),
		cmocka_unit_test(fold_lookup_names_finds_each_or_none),
		cmocka_unit_test(fold_sorted_reader_caps),
		cmocka_unit_test(fold_sorted_reader_keeps_lines_in_order),
		cmocka_unit_test(fold_common_prefix_matches_bytes),
		cmocka_unit_test(fold_sorted_reader_many_names),
		cmocka_unit_test(fold_finish_two_threads_same_as_one),
		cmocka_unit_test(fold_output_does_not_depend_on_hash_key),
		cmocka_unit_test(fold_writer_two_threads_same_as_one),
		cmocka_unit_test(fold_lib_shares_count_each_sample_once),
		cmocka_unit_test(fold_lib_shares_give_state_frames_to_their_parent),
		cmocka_unit_test(embed_encode_odd_length),
		cmocka_unit_test(embed_encode_small_is_stored),
		cmocka_unit_test(embed_encode_split_is_one_stream),
		cmocka_unit_test(embed_encode_refuses_past_reader_cap),
		cmocka_unit_test(sort_names_matches_definition),
		cmocka_unit_test(sort_keys_matches_qsort),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
