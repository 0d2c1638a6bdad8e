/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-svg-frames.c — rebuilding a profile from the drawn
 * frames of a foreign flame graph (fold/read-svg-frames.c), without the
 * XML parser in the way (fuzz-svg.c covers the whole document).
 *
 * Input: lines "X Y W TITLE", numbers as the SVG's attributes would give
 * them to strtod(), TITLE as a frame's <title> ("name (N samples, P%)").
 * Oracles: whatever the geometry, the trie passes fold_trie_check() and
 * every count in it is finite and non-negative.
 */
#include <math.h>

#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"
#include "fold/in/internal.h"

/* Parses one "X Y W TITLE" line into fs; ignores lines that do not. */
static int add_line(struct fold_svg_frames *fs, fold_trie *t, char *line)
{
	double v[3];
	char *p = line, *end;
	for (int i = 0; i < 3; i++) {
		v[i] = strtod(p, &end);
		if (end == p || *end != ' ')
			return 0;
		p = end + 1;
	}
	return fold_svg_frames_add(fs, t, p, v[0], v[1], v[2]);
}

static int fuzz_input(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	fold_trie *t = fold_trie_new();
	struct fold_svg_frames fs = { 0 };
	struct uf_err err = { 0 };
	int rc = 0;
	if (!text || !t)
		abort();
	memcpy(text, data, size);
	text[size] = 0;
	for (char *line = text, *nl; rc >= 0 && line; line = nl ? nl + 1 : NULL) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = 0;
		rc = add_line(&fs, t, line);
	}
	if (rc >= 0 && fold_svg_frames_build(&fs, t, &err, "fuzz") == 0) {
		if (fold_trie_check(t) != 0)
			fuzz_fail("fold_trie_check failed after rebuilding frames");
		for (uint32_t i = 0; i < t->nnodes; i++)
			if (!(t->self[i] >= 0) || !isfinite(t->self[i]))
				fuzz_fail("node %u has count %g", i, t->self[i]);
	}
	fold_svg_frames_release(&fs);
	fold_trie_free(t);
	free(text);
	return 0;
}

FUZZ_READER(fuzz_input)
