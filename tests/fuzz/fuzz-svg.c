/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-svg.c — the SVG reader as `fold`, `render` and `diff`
 * use it (fold/read-svg.c through libxml2, then the embedded trie of
 * fold/embed-read.c or the drawn frames of fold/read-svg-frames.c).
 *
 * Input: an SVG document (seeds: ours with embedded data, flamegraph.pl's
 * without).  Oracles: a document that reads gives a trie passing
 * fold_trie_check(); and SVG -> fold -> render -> fold is the identity:
 * the trie drawn again by render/ (full embedded data) and read back
 * writes the same folded text as the trie read from the input (when
 * render and the folded writer accept it: they may refuse a count they
 * cannot write exactly, never change it).
 */
#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"
#include "fold/in/internal.h"
#include "render/render.h"

/* Reads an SVG from memory into a finished trie; NULL when refused. */
static fold_trie *read_svg(const char *buf, size_t len, int *approximate)
{
	fold_trie *t = fold_trie_new();
	struct fold_read_opts o = { .label = "fuzz" };
	struct fold_read_stats st = { 0 };
	struct uf_err err = { 0 };
	if (!t || fold_read_svg_mem(t, buf, len, &o, &st, &err) != 0) {
		fold_trie_free(t);
		return NULL;
	}
	if (fold_trie_check(t) != 0)
		fuzz_fail("fold_trie_check failed after reading the SVG");
	*approximate = st.approximate;
	if (fold_trie_finish(t) != 0) {
		fold_trie_free(t);
		return NULL;
	}
	return t;
}


static int fuzz_input(const uint8_t *data, size_t size)
{
	int approx = 0, approx2 = 0;
	fold_trie *t = read_svg((const char *)data, size, &approx);
	if (!t)
		return 0;
	struct fuzz_mem f1 = { 0 }, svg, f2 = { 0 };
	f1.buf = fuzz_write_folded(t, &f1.len);
	if (!f1.buf) {   /* refused as folded text: nothing to compare */
		fold_trie_free(t);
		return 0;
	}
	struct render_opts o;
	render_opts_init(&o);
	o.embed = RENDER_EMBED_FULL;
	o.no_script = 1;
	struct render_report rep;
	struct uf_err err = { 0 };
	if (fuzz_mem_open(&svg))
		abort();
	int rc = render_svg(t, &o, svg.f, &rep, &err);
	fuzz_mem_close(&svg);
	if (rc == 0 && fuzz_oracle()) {
		fold_trie *u = read_svg(svg.buf, svg.len, &approx2);
		if (!u)
			fuzz_fail("an SVG we rendered does not read back");
		if (approx2)
			fuzz_fail("an SVG we rendered reads back as approximate");
		f2.buf = fuzz_write_folded(u, &f2.len);
		if (!f2.buf || f1.len != f2.len || memcmp(f1.buf, f2.buf, f1.len))
			fuzz_fail("SVG -> fold -> render -> fold changed the profile");
		free(f2.buf);
		fold_trie_free(u);
	}
	free(f1.buf);
	free(svg.buf);
	fold_trie_free(t);
	return 0;
}

FUZZ_READER(fuzz_input)
