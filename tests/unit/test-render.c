/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-render.c — palettes, escaping, layout geometry and the
 * SVG text for small hand-checked profiles; a name's text and colour made
 * once and reused on every frame of it (not under --random).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fold/in/in.h"
#include "render/escape.h"
#include "render/layout.h"
#include "render/palette.h"
#include "render/render.h"

static fold_trie *parse(const char *text, int keep_seq)
{
	fold_trie *t = fold_trie_new();
	if (keep_seq)
		fold_trie_keep_sequence(t);
	struct fold_read_opts o = { .label = "mem" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	assert_int_equal(fold_read_folded_mem(t, text, strlen(text), &o, &st, &err), 0);
	assert_int_equal(fold_trie_finish(t), 0);
	return t;
}

static char *svg(const fold_trie *t, struct render_opts *o)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct render_report rep;
	struct uf_err err = { 0 };
	o->no_script = 1;
	assert_int_equal(render_svg(t, o, f, &rep, &err), 0);
	fclose(f);
	return buf;
}

static void render_palette_matches_flamegraph_pl(void **state)
{
	(void)state;
	char buf[32];
	/* values flamegraph.pl drew (../shared/flamegraph-ref special-names) */
	render_color("hot", 0, "lt", 2, buf, sizeof buf);
	assert_string_equal(buf, "rgb(216,53,12)");
	render_color("hot", 0, "", 0, buf, sizeof buf);
	assert_string_equal(buf, "rgb(213,39,9)");
	render_color("hot", 0, "caf\xc3\xa9_\xe6\x97\xa5\xe6\x9c\xac\xe8\xaa\x9e", 15, buf, sizeof buf);
	assert_string_equal(buf, "rgb(209,21,5)"); /* code points, not bytes */
	render_color("java", 0, "", 0, buf, sizeof buf);
	assert_string_equal(buf, "rgb(209,63,63)");
	assert_int_equal(render_color("nosuch", 0, "x", 1, buf, sizeof buf), -1);
	assert_true(render_palette_known("rust") && render_palette_known("python"));
}

static void render_escape_handles_every_byte(void **state)
{
	(void)state;
	struct display d = { 0 };
	assert_int_equal(escape_display(&d, "a\x01\xff\xc3\xa9<", 6), 0);
	assert_string_equal(d.buf, "a\\x01\\xFF\xc3\xa9<");
	assert_int_equal(d.chars, 1 + 4 + 4 + 1 + 1);
	assert_int_equal(escape_prefix_bytes(&d, 10), 11); /* a, \x01, \xFF, é */
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	escape_xml(f, "<&>\"'", 5);
	fclose(f);
	assert_string_equal(out, "&lt;&amp;&gt;&quot;&#39;");
	free(out);
	free(d.buf);
}

/* escape_is_plain says yes exactly when the two passes change nothing:
 * every byte value at every place of strings of 0 to 40 bytes (the 16
 * byte steps and the tail). */
static void render_escape_plain_is_exact(void **state)
{
	(void)state;
	char s[40];
	for (size_t len = 0; len <= sizeof s; len++)
		for (size_t at = 0; at < (len ? len : 1); at++)
			for (int c = 0; c < 256; c++) {
				memset(s, 'x', sizeof s);
				if (len)
					s[at] = (char)c;
				struct display d = { 0 };
				assert_int_equal(escape_display(&d, s, len), 0);
				char *out = NULL;
				size_t olen = 0;
				FILE *f = open_memstream(&out, &olen);
				escape_xml(f, d.buf, d.len);
				fclose(f);
				int same = d.len == len && d.chars == len && olen == len && !memcmp(out, s, len);
				assert_int_equal(escape_is_plain(s, len), same);
				free(out);
				free(d.buf);
				if (!len)
					break;
			}
}

/* flamegraph.pl draws "a" twice when "a-b" sorts between "a 5" and "a;c". */
static void render_layout_splits_like_flamegraph_pl(void **state)
{
	(void)state;
	fold_trie *t = parse("a;c 2\na-b 1\na 5\n", 0);
	struct layout L;
	assert_int_equal(layout_build(t, 0, 0, 0, &L), 0);
	assert_int_equal(L.n, 5); /* all, a(self), a-b, a(children), c */
	assert_true(L.f[1].start == 0 && L.f[1].end == 5);
	assert_true(L.f[2].start == 5 && L.f[2].end == 6);
	assert_true(L.f[3].start == 6 && L.f[3].end == 8 && L.f[3].node == L.f[1].node);
	assert_true(L.f[4].depth == 2 && L.f[4].start == 6);
	layout_release(&L);
	fold_trie_free(t);
}

static void render_layout_prunes_into_runs(void **state)
{
	(void)state;
	fold_trie *t = parse("m;a 1\nm;big 1000\nm;c 1\nm;c;x 1\n", 0);
	struct layout L;
	assert_int_equal(layout_build(t, 0, 2.5, 0, &L), 0);
	/* kept: all, m, big; a and c (2 wide, with its child x) pruned into m */
	assert_int_equal(L.n, 3);
	const struct frame *m = &L.f[1];
	assert_int_equal(m->pruned_frames, 3);
	assert_true(m->pruned_samples == 3);
	assert_int_equal(m->runs_n, 2); /* [0,1) before big and [1001,1003) after */
	assert_true(L.runs[m->runs_off] == 0 && L.runs[m->runs_off + 1] == 1);
	assert_true(L.runs[m->runs_off + 2] == 1001 && L.runs[m->runs_off + 3] == 1003);
	assert_int_equal(L.pruned_depthmax, 2);
	layout_release(&L);
	fold_trie_free(t);
}

static void render_flamechart_keeps_input_order(void **state)
{
	(void)state;
	fold_trie *t = parse("b 1\na 2\nb 3\n", 1);
	struct layout L;
	assert_int_equal(layout_build(t, 1, 0, 0, &L), 0);
	assert_int_equal(L.n, 4); /* all, b, a, b */
	assert_true(L.f[1].end == 1 && L.f[2].start == 1 && L.f[3].start == 3 && L.f[3].end == 6);
	layout_release(&L);
	fold_trie_free(t);
}

static void render_svg_geometry_and_titles(void **state)
{
	(void)state;
	fold_trie *t = parse("main;a 1180\nmain;b 1180\n", 0);
	struct render_opts o;
	render_opts_init(&o);
	char *s = svg(t, &o);
	/* 2360 samples over 1180 px: b starts at 10 + 590 */
	assert_non_null(strstr(s, "<title>b (1,180 samples, 50.00%)</title><rect x=\"600.0\" y=\"37.0\" "
				  "width=\"590.0\" height=\"15.0\""));
	assert_non_null(strstr(s, "<title>all (2,360 samples, 100%)</title>"));
	assert_non_null(strstr(s, "height=\"118\"")); /* 3 rows of 16 + ypad1 36 + ypad2 34 */
	assert_non_null(strstr(s, "<text id=\"title\" x=\"600.00\" y=\"24.00\">Flame Graph</text>"));
	free(s);
	o.countname = "bytes";
	o.factor = 2;
	s = svg(t, &o);
	assert_non_null(strstr(s, "<title>b (2,360 bytes, 50.00%)</title>"));
	free(s);
	fold_trie_free(t);
}

static void render_svg_pruned_row_extends_canvas_upward(void **state)
{
	(void)state;
	fold_trie *t = parse("m 1000\nm;tiny 1\n", 0);
	struct render_opts o;
	render_opts_init(&o);
	o.minwidth = 2; /* tiny is 1.18 px: pruned, its box drawn */
	char *s = svg(t, &o);
	assert_non_null(strstr(s, "viewBox=\"0 -16 1200"));
	assert_non_null(strstr(s, "<title>1 frame pruned (1 samples, 0.10%)</title>"));
	free(s);
	fold_trie_free(t);
	/* a pruned box narrower than a pixel is not drawn and takes no row */
	t = parse("m 100000\nm;tiny 1\n", 0);
	render_opts_init(&o);
	s = svg(t, &o);
	assert_null(strstr(s, "frame pruned"));
	assert_null(strstr(s, "viewBox=\"0 -16 1200"));
	free(s);
	fold_trie_free(t);
}

static void render_differential_colours(void **state)
{
	(void)state;
	fold_trie *t = parse("m;up 0 10\nm;down 10 0\nm;same 5 5\n", 0);
	struct render_opts o;
	render_opts_init(&o);
	char *s = svg(t, &o);
	assert_non_null(strstr(s, "<title>up (10 samples, 66.67%; +66.67%)\nbefore \xe2\x86\x92 after: total 0 \xe2\x86\x92 10"));
	assert_non_null(strstr(s, "fill=\"rgb(255,0,0)\""));      /* grew the most: red */
	assert_non_null(strstr(s, "<title>same (5 samples, 33.33%; 0.00%)\n"));
	free(s);
	o.negate = 1;
	s = svg(t, &o);
	assert_non_null(strstr(s, "<title>up (10 samples, 66.67%; -66.67%)"));
	assert_non_null(strstr(s, "fill=\"rgb(0,0,255)\""));
	free(s);
	fold_trie_free(t);
}

/* Frames go to stdio through render/frames.c's own 256 KiB buffer: past
 * it (here ~0.8 MB of frames, a name of 64 KiB bad bytes that fills it
 * alone, names with entities), every frame is written once, in order. */
static void render_frames_buffer_keeps_order(void **state)
{
	(void)state;
	enum { N = 4000 };
	size_t cap = (size_t)N * 32 + FOLD_MAX_NAME + 64, len = 0;
	char *text = malloc(cap);
	assert_non_null(text);
	for (int i = 0; i < N; i++)
		len += (size_t)snprintf(text + len, cap - len, "m;f%04d%s 1\n", i, i % 97 ? "" : "<&>");
	len += (size_t)snprintf(text + len, cap - len, "m;zz");
	memset(text + len, 0xff, FOLD_MAX_NAME - 2); /* "\xFF" each: 4 bytes displayed */
	len += FOLD_MAX_NAME - 2;
	memcpy(text + len, " 400\n", 6);
	fold_trie *t = parse(text, 0);
	struct render_opts o;
	render_opts_init(&o);
	o.minwidth = 0;
	char *s = svg(t, &o);
	assert_true(strlen(s) > 3 * (256u << 10)); /* the buffer filled a few times */
	const char *p = s;
	for (int i = 0; i < N; i++) {
		char want[64];
		snprintf(want, sizeof want, "<title>f%04d%s (1 samples", i, i % 97 ? "" : "&lt;&amp;&gt;");
		const char *q = strstr(p, "<title>f");
		assert_non_null(q);
		assert_memory_equal(q, want, strlen(want));
		p = q + 1;
	}
	assert_null(strstr(p, "<title>f"));
	p = strstr(p, "<title>zz\\xFF");
	assert_non_null(p);
	p += strlen("<title>zz");
	for (size_t k = 0; k < FOLD_MAX_NAME - 2; k++)
		assert_memory_equal(p + 4 * k, "\\xFF", 4);
	assert_memory_equal(p + 4 * (FOLD_MAX_NAME - 2), " (400 samples", 13);
	assert_non_null(strstr(p, "</g>\n</g>\n")); /* the last frame, then the group */
	free(s);
	free(text);
	fold_trie_free(t);
}

/* The fills of the frames whose title starts with `title`, in order
 * (at most max); returns how many. */
static int fills_of(const char *s, const char *title, char fill[][40], int max)
{
	int n = 0;
	for (const char *p = strstr(s, title); p && n < max; p = strstr(p + 1, title)) {
		const char *f = strstr(p, "fill=\"");
		assert_non_null(f);
		f += 6;
		size_t len = strcspn(f, "\"");
		assert_true(len < 40);
		memcpy(fill[n], f, len);
		fill[n++][len] = 0;
	}
	return n;
}

/* A name's text and colour are made on its first frame and reused
 * (render/frames.c, frame_name): every frame of a name drawn under 24
 * parents has its escaped title and label and the palette's colour for
 * it; with --random each frame still draws its own colour. */
static void render_name_cache_per_frame(void **state)
{
	(void)state;
	char text[4096];
	size_t len = 0;
	for (int i = 0; i < 24; i++) /* widths 1..24: labels cut at different lengths */
		len += (size_t)snprintf(text + len, sizeof text - len, "p%02d;x<&>\"'y_[k] %d\n", i, i + 1);
	fold_trie *t = parse(text, 0);
	struct render_opts o;
	render_opts_init(&o);
	o.minwidth = 0;
	o.width = 3000;
	char *s = svg(t, &o), want[40], fill[24][40];
	assert_int_equal(render_color("hot", 0, "x<&>\"'y_[k]", 12, want, sizeof want), 0);
	assert_int_equal(fills_of(s, "<title>x&lt;&amp;&gt;&quot;&#39;y (", fill, 24), 24);
	for (int i = 0; i < 24; i++)
		assert_string_equal(fill[i], want);
	assert_non_null(strstr(s, ">x&lt;&amp;&gt;&quot;&#39;y</text>")); /* a whole label */
	assert_non_null(strstr(s, ">x&lt;..</text>"));                   /* a cut one */
	free(s);
	o.random = 1;
	s = svg(t, &o);
	assert_int_equal(fills_of(s, "<title>x&lt;&amp;&gt;&quot;&#39;y (", fill, 24), 24);
	int differ = 0;
	for (int i = 1; i < 24; i++)
		differ += strcmp(fill[i], fill[0]) != 0;
	assert_true(differ > 0);
	free(s);
	fold_trie_free(t);
}

/* A differential's BEFORE subtree sums are made once and handed to the
 * BEFORE layer and the embedded block: the same frames and the same
 * block as each summing its own. */
static void render_diff_shared_sums_change_nothing(void **state)
{
	(void)state;
	fold_trie *t = parse("m;a;x 3 1\nm;a;y 0 4\nm;b 7 2\nm;c;d;e 5 0\nm 1 1\n", 0);
	double *sums = malloc(t->nnodes * sizeof *sums);
	assert_non_null(sums);
	memcpy(sums, t->base, t->nnodes * sizeof *sums);
	for (uint32_t i = t->nnodes - 1; i > 0; i--)
		sums[t->parent[i]] += sums[i];
	struct layout A, B;
	for (double minw = 0; minw < 4; minw += 1.5) {
		assert_int_equal(layout_build(t, 0, minw, 1, &A), 0);
		assert_int_equal(layout_build_base(t, 0, minw, sums, &B), 0);
		assert_int_equal(A.n, B.n);
		assert_memory_equal(A.f, B.f, A.n * sizeof *A.f);
		assert_int_equal(A.nruns, B.nruns);
		if (A.nruns)
			assert_memory_equal(A.runs, B.runs, A.nruns * sizeof *A.runs);
		layout_release(&A);
		layout_release(&B);
	}
	int pruned = 0;
	for (size_t budget = 0; budget < 200; budget += 40) { /* 0: whole; then pruned */
		char *x = NULL, *y = NULL;
		size_t xn = 0, yn = 0;
		struct fold_embed_info xi, yi;
		FILE *fx = open_memstream(&x, &xn), *fy = open_memstream(&y, &yn);
		assert_int_equal(fold_embed_write_columns(t, fx, budget, &xi), 0);
		assert_int_equal(fold_embed_write_columns_base(t, fy, budget, sums, &yi), 0);
		fclose(fx);
		fclose(fy);
		assert_int_equal(xn, yn);
		assert_memory_equal(x, y, xn);
		assert_int_equal(xi.nodes_written, yi.nodes_written);
		pruned |= yi.nodes_written < yi.nodes_total;
		free(x);
		free(y);
	}
	assert_true(pruned); /* the shared sums were used */
	free(sums);
	fold_trie_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(render_palette_matches_flamegraph_pl),
		cmocka_unit_test(render_escape_handles_every_byte),
		cmocka_unit_test(render_escape_plain_is_exact),
		cmocka_unit_test(render_layout_splits_like_flamegraph_pl),
		cmocka_unit_test(render_layout_prunes_into_runs),
		cmocka_unit_test(render_flamechart_keeps_input_order),
		cmocka_unit_test(render_svg_geometry_and_titles),
		cmocka_unit_test(render_svg_pruned_row_extends_canvas_upward),
		cmocka_unit_test(render_differential_colours),
		cmocka_unit_test(render_frames_buffer_keeps_order),
		cmocka_unit_test(render_name_cache_per_frame),
		cmocka_unit_test(render_diff_shared_sums_change_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
