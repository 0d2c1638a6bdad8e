/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-interop.c — fold's interop layer alone: the `perf
 * script` reader (fold/read-perf.c), gzip input (fold/gzip.c) and the
 * pprof and speedscope writers (fold/write-pprof.c,
 * fold/write-speedscope.c).  The pprof file is unpacked again with the
 * generated protobuf-c code and zlib; every case ends with the trie's
 * invariant check.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include <cmocka.h>

#include "fold/fold.h"
#include "profile.pb-c.h"

/* Reads perf text with the given options and returns the folded text
 * (owned; free it). */
static char *perf_fold(const char *text, const struct fold_perf_opts *po, struct fold_read_stats *st)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "mem", .perf = po };
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_perf_mem(t, text, strlen(text), &o, st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	assert_int_equal(fold_write_folded(t, f), 0);
	fclose(f);
	assert_int_equal(fold_trie_check(t), 0);
	fold_trie_free(t);
	return out;
}

static void fold_perf_collapses_a_sample(void **state)
{
	struct fold_read_stats st = { 0 };
	char *out = perf_fold("# comment\n"
			      "my prog 12/13 [000] 1.5: 250 cycles: \n"
			      "\t  4004f6 leaf+0x16 (/tmp/prog)\n"
			      "\t  400500 a->b (/tmp/prog)\n"
			      "\t  400600 [unknown] (/lib/libz.so.1)\n"
			      "\n", NULL, &st);
	assert_string_equal(out, "my_prog;[libz.so.1];a;b_[i];leaf 250\n");
	assert_int_equal(st.bad, 0);
	free(out);
}

static void fold_perf_options(void **state)
{
	const char *in = "kk 5/6 [000] 1.0: cycles:\n\tffff81 sys_read ([kernel.kallsyms])\n"
			 "\t7f00 jitted (/tmp/perf-5.map)\n\t7f01 [unknown] ([unknown])\n\n";
	struct fold_read_stats st = { 0 };
	struct fold_perf_opts po = { .tid = 1, .all = 1, .addrs = 1 };
	char *out = perf_fold(in, &po, &st);
	assert_string_equal(out, "kk-5/6;[unknown <7f01>];jitted_[j];sys_read_[k] 1\n");
	free(out);
}

/* The script's header regex wants a comm of two bytes or more; a sample
 * counts only when an empty line ends it; other events are skipped. */
static void fold_perf_script_quirks(void **state)
{
	struct fold_read_stats st = { 0 };
	char *out = perf_fold("x 1 [000] 1.0: cycles:\n\t1 f (/b)\n\n"
			      "ab 2 [000] 1.0: 3 cycles:\n\t1 g (/b)\n\n"
			      "ab 2 [000] 1.0: 3 instructions:\n\t1 h (/b)\n\n"
			      "ab 2 [000] 1.0: 4 cycles:\n\t1 last (/b)\n",
			      NULL, &st);
	assert_string_equal(out, "ab;g 3\n");
	assert_int_equal(st.perf_other, 1);
	assert_string_equal(st.perf_event, "cycles");
	assert_true(st.bad >= 1); /* the one-letter header is not a header */
	free(out);
}

/* A frame line with no name ("(process)" frames are skipped) is cached
 * with an empty group: the second sample must not touch the group array
 * (found by libFuzzer: pointer arithmetic on NULL). */
static void fold_perf_cached_empty_frame(void **state)
{
	struct fold_read_stats st = { 0 };
	char *out = perf_fold("ab 2 [000] 1.0: cycles:\n\t1 (deleted) (/b)\n\t2 f (/b)\n\n"
			      "ab 2 [000] 1.0: cycles:\n\t1 (deleted) (/b)\n\t2 f (/b)\n\n",
			      NULL, &st);
	assert_string_equal(out, "ab;f 2\n");
	free(out);
}

/* Deeper than FOLD_MAX_DEPTH: the outermost frames are kept. */
static void fold_perf_depth_cap_keeps_outermost(void **state)
{
	size_t n = FOLD_MAX_DEPTH + 100, cap = n * 32 + 64, len = 0;
	char *in = malloc(cap);
	len += (size_t)snprintf(in, cap, "deep 1 [000] 1.0: cycles:\n");
	for (size_t i = n; i > 0; i--) /* leaf first: f<n-1> ... f0 */
		len += (size_t)snprintf(in + len, cap - len, "\t1 f%zu (/b)\n", i - 1);
	snprintf(in + len, cap - len, "\n");
	struct fold_read_stats st = { 0 };
	char *out = perf_fold(in, NULL, &st);
	assert_int_equal(st.truncated, 1);
	assert_true(strncmp(out, "deep;f0;f1;f2;", 14) == 0);
	char want[64];
	snprintf(want, sizeof want, ";f%d 1\n", FOLD_MAX_DEPTH - 1);
	assert_non_null(strstr(out, want));
	free(out);
	free(in);
}

static void fold_perf_sniff_decides(void **state)
{
	assert_int_equal(fold_perf_sniff("pp 1 [0] 1.0: cycles:\n", 22, 0), 1);
	assert_int_equal(fold_perf_sniff("main;f 3\n", 9, 0), 0);
	assert_int_equal(fold_perf_sniff("pp 1 [0] 1.0", 12, 0), -1);
	assert_int_equal(fold_perf_sniff("pp 1 [0] 1.0", 12, 1), 0);
}

/* ---- gzip ------------------------------------------------------------ */

static char *gz(const char *text, size_t *out_len)
{
	z_stream zs = { 0 };
	size_t cap = strlen(text) + 1024;
	char *out = malloc(cap);
	assert_int_equal(deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY), Z_OK);
	zs.next_in = (Bytef *)text;
	zs.avail_in = (uInt)strlen(text);
	zs.next_out = (Bytef *)out;
	zs.avail_out = (uInt)cap;
	assert_int_equal(deflate(&zs, Z_FINISH), Z_STREAM_END);
	*out_len = cap - zs.avail_out;
	deflateEnd(&zs);
	return out;
}

static int read_file(const char *bytes, size_t len, fold_trie *t, struct uf_err *err)
{
	char path[] = "/tmp/uf-unit-gz.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, bytes, len), (ssize_t)len);
	close(fd);
	struct fold_read_opts o = { .label = path };
	struct fold_read_stats st = { 0 };
	int rc = fold_read_path(t, path, &o, &st, err);
	unlink(path);
	return rc;
}

static void fold_gz_reads_every_format(void **state)
{
	const char *texts[] = { "a;b 2\na;c 3\n", "pp 1 [0] 1.0: cycles:\n\t1 b (/x)\n\n" };
	double want[] = { 5, 1 };
	for (int k = 0; k < 2; k++) {
		size_t n;
		char *z = gz(texts[k], &n);
		fold_trie *t = fold_trie_new();
		struct uf_err err = { 0 };
		assert_int_equal(read_file(z, n, t, &err), 0);
		assert_int_equal(fold_trie_finish(t), 0);
		assert_true(t->total[0] == want[k]);
		assert_int_equal(t->nnodes, k == 0 ? 4 : 3);
		assert_int_equal(fold_trie_check(t), 0);
		/* cut short: an error, with the reason */
		fold_trie *t2 = fold_trie_new();
		struct uf_err e2 = { 0 };
		assert_true(read_file(z, n - 5, t2, &e2) < 0);
		assert_string_equal(e2.why, "truncated gzip data");
		fold_trie_free(t2);
		fold_trie_free(t);
		free(z);
	}
}

/* ---- pprof ------------------------------------------------------------ */

static Perftools__Profiles__Profile *unpack(const char *gzbuf, size_t n)
{
	z_stream zs = { 0 };
	size_t cap = 1 << 20;
	unsigned char *raw = malloc(cap);
	assert_int_equal(inflateInit2(&zs, 16 + MAX_WBITS), Z_OK);
	zs.next_in = (Bytef *)gzbuf;
	zs.avail_in = (uInt)n;
	zs.next_out = raw;
	zs.avail_out = (uInt)cap;
	assert_int_equal(inflate(&zs, Z_FINISH), Z_STREAM_END);
	size_t len = cap - zs.avail_out;
	inflateEnd(&zs);
	Perftools__Profiles__Profile *p = perftools__profiles__profile__unpack(NULL, len, raw);
	free(raw);
	assert_non_null(p);
	return p;
}

static void fold_pprof_from_trie(void **state)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "m" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	const char *in = "main;f;g 3\nmain;f 2\nmain;h;g 1.6\n";
	assert_int_equal(fold_read_folded_mem(t, in, strlen(in), &o, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_export_opts eo = { .count_name = "samples", .period_ns = 1e6 };
	assert_int_equal(fold_write_pprof(t, &eo, f), 0);
	fclose(f);
	Perftools__Profiles__Profile *p = unpack(buf, len);
	assert_string_equal(p->string_table[0], "");
	assert_int_equal(p->n_sample_type, 2);
	assert_string_equal(p->string_table[p->sample_type[1]->type], "cpu");
	assert_int_equal(p->n_sample, 3);
	assert_int_equal(p->n_function, 4);  /* main f g h: g shared by two stacks */
	assert_int_equal(p->n_location, 4);
	int64_t total = 0, ns = 0;
	for (size_t i = 0; i < p->n_sample; i++) {
		assert_int_equal(p->sample[i]->n_value, 2);
		total += p->sample[i]->value[0];
		ns += p->sample[i]->value[1];
		/* leaf first: the last location is main */
		uint64_t last = p->sample[i]->location_id[p->sample[i]->n_location_id - 1];
		assert_true(last >= 1 && last <= p->n_location);
		uint64_t fn = p->location[last - 1]->line[0]->function_id;
		assert_string_equal(p->string_table[p->function[fn - 1]->name], "main");
	}
	assert_int_equal(total, 7);        /* 3 + 2 + round(1.6) */
	assert_int_equal(ns, 6600000);     /* 6.6 samples x 1 ms, each rounded */
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
	assert_int_equal(fold_trie_check(t), 0);
	fold_trie_free(t);
}

static void fold_pprof_builder_dedups(void **state)
{
	struct fold_pprof *b = fold_pprof_new();
	assert_int_equal(fold_pprof_sample_type(b, "samples", "count"), 0);
	uint64_t m = fold_pprof_mapping(b, 0x400000, 0x500000, 0, "/bin/x", "abcd");
	uint64_t l1 = fold_pprof_location(b, m, 0x401000, "f", 1, "x.c", 10);
	uint64_t l2 = fold_pprof_location(b, m, 0x401000, "f", 1, "x.c", 10);
	uint64_t l3 = fold_pprof_location(b, m, 0x401004, "f", 1, "x.c", 11);
	uint64_t l4 = fold_pprof_location(b, 0, 0, "f", 1, "x.c", 0);
	assert_true(l1 == l2 && l1 != l3 && l4 != l1 && l4 != l3);
	uint64_t ids[] = { l3, l1 };
	int64_t v = 5;
	assert_int_equal(fold_pprof_sample(b, ids, 2, &v), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	assert_int_equal(fold_pprof_write(b, f), 0);
	fclose(f);
	Perftools__Profiles__Profile *p = unpack(buf, len);
	assert_int_equal(p->n_function, 1); /* one function (f, x.c) for three locations */
	assert_int_equal(p->n_location, 3);
	assert_int_equal(p->n_mapping, 1);
	assert_string_equal(p->string_table[p->mapping[0]->build_id], "abcd");
	assert_int_equal(p->location[l3 - 1]->address, 0x401004);
	perftools__profiles__profile__free_unpacked(p, NULL);
	free(buf);
	fold_pprof_free(b);
}

/* ---- speedscope -------------------------------------------------------- */

static void fold_speedscope_shared_frames_and_escapes(void **state)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "m" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	const char *in = "m;\"q\\\x01;f 2\nm;f 1\nm;bad\xff 1\n";
	assert_int_equal(fold_read_folded_mem(t, in, strlen(in), &o, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct fold_export_opts eo = { .name = "x" };
	assert_int_equal(fold_write_speedscope(t, &eo, f), 0);
	fclose(f);
	assert_non_null(strstr(buf, "{\"name\":\"\\\"q\\\\\\u0001\"}"));
	assert_non_null(strstr(buf, "{\"name\":\"bad\\ufffd\"}"));
	/* f is one shared frame used by two stacks */
	const char *first = strstr(buf, "{\"name\":\"f\"}");
	assert_non_null(first);
	assert_null(strstr(first + 1, "{\"name\":\"f\"}"));
	assert_non_null(strstr(buf, "\"endValue\":4"));
	/* one sample per stack (the trie's order), weights in the same order */
	assert_non_null(strstr(buf, "\"samples\":[[0,1,2],[0,3],[0,2]],\"weights\":[2,1,1]}"));
	free(buf);
	assert_int_equal(fold_trie_check(t), 0);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fold_perf_collapses_a_sample),
		cmocka_unit_test(fold_perf_options),
		cmocka_unit_test(fold_perf_script_quirks),
		cmocka_unit_test(fold_perf_cached_empty_frame),
		cmocka_unit_test(fold_perf_depth_cap_keeps_outermost),
		cmocka_unit_test(fold_perf_sniff_decides),
		cmocka_unit_test(fold_gz_reads_every_format),
		cmocka_unit_test(fold_pprof_from_trie),
		cmocka_unit_test(fold_pprof_builder_dedups),
		cmocka_unit_test(fold_speedscope_shared_frames_and_escapes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
