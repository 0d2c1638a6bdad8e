/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/palette.h — colour palettes (private to render/).
 *
 * flamegraph.pl's formulas: a palette maps three values v1..v3 in [0,1)
 * to an rgb() triple.  By default the values are Perl's drand48 seeded
 * with the sum of the name's code points (so a function has the same
 * colour in every graph); --hash uses flamegraph.pl's positional name
 * hash; --random draws them from a generator seeded per run.
 */
#ifndef UF_RENDER_PALETTE_H
#define UF_RENDER_PALETTE_H

#include <stddef.h>
#include <stdint.h>

enum palette_mode { PALETTE_NAME, PALETTE_HASH, PALETTE_RANDOM };

struct palette_rng {
	uint64_t x; /* drand48 state, 48 bits */
};

/* Perl's drand48: seed, then draws in [0,1). */
void palette_rng_seed(struct palette_rng *r, uint32_t seed);
double palette_rng_next(struct palette_rng *r);

/* Writes "rgb(r,g,b)" for `name` under palette `colors`; `waker` marks a
 * frame above a "--" separator for the chain palette.  Returns 0, or -1
 * for an unknown palette. */
int palette_color(const char *colors, enum palette_mode mode, struct palette_rng *rng,
		  const char *name, size_t len, int waker, char *buf, size_t size);
/* "rgb(r,g,b)" of library `lib` for --colors=lib (a hue per library). */
void palette_lib_color(const char *lib, size_t len, char *buf, size_t size);

#endif
