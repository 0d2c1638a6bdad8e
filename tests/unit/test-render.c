/*
 * tests/unit/test-render.c — palettes, escaping, layout geometry and the
 * SVG text for small hand-checked profiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(render_palette_matches_flamegraph_pl),
		cmocka_unit_test(render_escape_handles_every_byte),
		cmocka_unit_test(render_layout_splits_like_flamegraph_pl),
		cmocka_unit_test(render_layout_prunes_into_runs),
		cmocka_unit_test(render_flamechart_keeps_input_order),
		cmocka_unit_test(render_svg_geometry_and_titles),
		cmocka_unit_test(render_svg_pruned_row_extends_canvas_upward),
		cmocka_unit_test(render_differential_colours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
