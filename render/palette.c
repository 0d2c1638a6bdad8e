/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/palette.c — flamegraph.pl's palettes, plus python and rust.
 *
 * The theme palettes (hot, mem, io) use all three values; the multi
 * palettes (java, js, perl, python, rust, wakeup, chain) first pick a
 * base colour from the name's shape and annotations (_[k] kernel,
 * _[j] JIT, _[i] inlined, _[w] waker), then use v1 only.  Names are
 * decoded as UTF-8 for the code-point sum, as flamegraph.pl does; bytes
 * that are not valid UTF-8 count as their own value.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/palette.h"
#include "render/render.h"

#define DECODE_MAX 64

static uint32_t codepoint_sum(const unsigned char *s, size_t len);
static size_t decode(const unsigned char *s, size_t len, uint32_t *out, size_t max, int from_end);
static double namehash(const uint32_t *cp, size_t n);
static const char *multi_type(const char *colors, const char *name, size_t len, int waker);
static int format_type(const char *type, const double v[3], char *buf, size_t size);

void palette_rng_seed(struct palette_rng *r, uint32_t seed)
{
	r->x = ((uint64_t)seed << 16) + 0x330e;
}

double palette_rng_next(struct palette_rng *r)
{
	r->x = (r->x * 0x5deece66dull + 0xb) & ((1ull << 48) - 1);
	return (double)r->x / (double)(1ull << 48);
}

/* The colours of the waiting pseudo-frames fold/model/when.c adds under a
 * waiting sample's stack (issue 30): greys and blues no palette gives a
 * function, so a wait never reads as code that ran; NULL for other names. */
static const char *state_frame_color(const char *name, size_t len)
{
	static const struct { const char *name, *rgb; } wait[] = {
		{ "[blocked]", "rgb(96,128,200)" },
		{ "[runnable]", "rgb(150,110,200)" },
		{ "[offline]", "rgb(160,160,160)" },
	};
	if (len < 9 || name[0] != '[') /* nearly every name, at one compare */
		return NULL;
	for (size_t i = 0; i < sizeof wait / sizeof wait[0]; i++)
		if (strlen(wait[i].name) == len && !memcmp(wait[i].name, name, len))
			return wait[i].rgb;
	return NULL;
}

int palette_color(const char *colors, enum palette_mode mode, struct palette_rng *rng,
		  const char *name, size_t len, int waker, char *buf, size_t size)
{
	const unsigned char *s = (const unsigned char *)name;
	double v[3];
	const char *wait = state_frame_color(name, len);
	if (wait) /* a waiting sample's pseudo-frame: its own colour in every palette */
		return snprintf(buf, size, "%s", wait) < (int)size ? 0 : -1;
	if (!strcmp(colors, "lib")) /* a frame without a library: by name, as hot */
		colors = "hot";
	if (mode == PALETTE_HASH) {
		uint32_t cp[DECODE_MAX];
		size_t n = decode(s, len, cp, DECODE_MAX, 0);
		v[0] = namehash(cp, n);
		n = decode(s, len, cp, DECODE_MAX, 1); /* reversed name */
		v[1] = v[2] = namehash(cp, n);
	} else if (mode == PALETTE_RANDOM) {
		for (int i = 0; i < 3; i++)
			v[i] = palette_rng_next(rng);
	} else {
		struct palette_rng r;
		palette_rng_seed(&r, codepoint_sum(s, len));
		v[0] = v[1] = v[2] = palette_rng_next(&r);
	}
	const char *type = multi_type(colors, name, len, waker);
	return format_type(type, v, buf, size);
}

int render_color(const char *colors, int hash, const char *name, size_t len, char *buf, size_t size)
{
	return palette_color(colors, hash ? PALETTE_HASH : PALETTE_NAME, NULL, name, len, 0, buf, size);
}

/* --colors=lib: one hue per library, from an FNV-1a hash of its name
 * (stable across runs and machines), at fixed saturation and value so
 * every library reads on the background; HSV to RGB. */
void palette_lib_color(const char *lib, size_t len, char *buf, size_t size)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < len; i++)
		h = (h ^ (unsigned char)lib[i]) * 16777619u;
	double hue = (double)(h % 360) / 60.0, s = 0.55, v = 0.92;
	int sector = (int)hue;
	double f = hue - sector, p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
	double r = v, g = t, b = p;
	switch (sector) {
	case 1: r = q; g = v; b = p; break;
	case 2: r = p; g = v; b = t; break;
	case 3: r = p; g = q; b = v; break;
	case 4: r = t; g = p; b = v; break;
	case 5: r = v; g = p; b = q; break;
	}
	snprintf(buf, size, "rgb(%d,%d,%d)", (int)(r * 255), (int)(g * 255), (int)(b * 255));
}

int render_palette_known(const char *colors)
{
	static const char *const known[] = { "hot", "mem", "io", "wakeup", "chain", "java", "js",
					     "perl", "python", "rust", "red", "green", "blue",
					     "aqua", "yellow", "purple", "orange", "lib", NULL };
	for (int i = 0; known[i]; i++)
		if (strcmp(colors, known[i]) == 0)
			return 1;
	return 0;
}

/* ---- name shapes -------------------------------------------------------- */

static int ends_with(const char *s, size_t len, const char *suffix)
{
	size_t n = strlen(suffix);
	return len >= n && memcmp(s + len - n, suffix, n) == 0;
}

static int contains(const char *s, size_t len, const char *needle)
{
	return memmem(s, len, needle, strlen(needle)) != NULL;
}

static int starts_with(const char *s, size_t len, const char *prefix)
{
	size_t n = strlen(prefix);
	return len >= n && memcmp(s, prefix, n) == 0;
}

static const char *java_type(const char *s, size_t len)
{
	static const char *const pkgs[] = { "java/", "javax/", "jdk/", "net/", "org/", "com/",
					    "io/", "sun/", NULL };
	if (ends_with(s, len, "_[j]"))
		return "green";
	if (ends_with(s, len, "_[i]"))
		return "aqua";
	for (int i = 0; pkgs[i]; i++)
		if (starts_with(s, len, pkgs[i]) ||
		    (len > 0 && s[0] == 'L' && starts_with(s + 1, len - 1, pkgs[i])))
			return "green";
	if (contains(s, len, ":::"))
		return "green";
	if (ends_with(s, len, "_[k]"))
		return "orange";
	return contains(s, len, "::") ? "yellow" : "red";
}

static const char *js_type(const char *s, size_t len)
{
	if (ends_with(s, len, "_[j]"))
		return memchr(s, '/', len) ? "green" : "aqua";
	if (contains(s, len, "::"))
		return "yellow";
	const char *slash = memchr(s, '/', len);
	if (slash && contains(slash, len - (size_t)(slash - s), ".js"))
		return "green";
	if (memchr(s, ':', len))
		return "aqua";
	if (len == 1 && s[0] == ' ')
		return "green";
	return contains(s, len, "_[k]") ? "orange" : "red";
}

static const char *perl_type(const char *s, size_t len)
{
	if (contains(s, len, "::"))
		return "yellow";
	if (contains(s, len, "Perl") || contains(s, len, ".pl"))
		return "green";
	return ends_with(s, len, "_[k]") ? "orange" : "red";
}

/* Ours: Python source frames green, interpreter internals aqua. */
static const char *python_type(const char *s, size_t len)
{
	if (ends_with(s, len, "_[k]"))
		return "orange";
	if (contains(s, len, ".py") || starts_with(s, len, "<module>"))
		return "green";
	if (starts_with(s, len, "<built-in") || starts_with(s, len, "<frozen") ||
	    starts_with(s, len, "_Py") || starts_with(s, len, "Py"))
		return "aqua";
	return contains(s, len, "::") ? "yellow" : "red";
}

/* Ours: the Rust standard library yellow, other Rust paths green. */
static const char *rust_type(const char *s, size_t len)
{
	if (ends_with(s, len, "_[k]"))
		return "orange";
	const char *p = s;
	size_t n = len;
	if (n > 0 && p[0] == '<') {
		p++;
		n--;
	}
	if (starts_with(p, n, "std::") || starts_with(p, n, "core::") || starts_with(p, n, "alloc::"))
		return "yellow";
	return contains(s, len, "::") ? "green" : "red";
}

static const char *multi_type(const char *colors, const char *name, size_t len, int waker)
{
	(void)waker; /* the "_[w]" annotation decides, as in flamegraph.pl */
	if (!strchr("jprwc", colors[0])) /* hot and the one-hue palettes: no compare a name */
		return colors;
	if (!strcmp(colors, "java"))
		return java_type(name, len);
	if (!strcmp(colors, "js"))
		return js_type(name, len);
	if (!strcmp(colors, "perl"))
		return perl_type(name, len);
	if (!strcmp(colors, "python"))
		return python_type(name, len);
	if (!strcmp(colors, "rust"))
		return rust_type(name, len);
	if (!strcmp(colors, "wakeup"))
		return "aqua";
	if (!strcmp(colors, "chain")) /* render/svg.c annotated the wakers, as flamegraph.pl */
		return contains(name, len, "_[w]") ? "aqua" : "blue";
	return colors;
}

static int format_type(const char *type, const double v[3], char *buf, size_t size)
{
	int r, g, b;
	if (!strcmp(type, "hot")) {
		r = 205 + (int)(50 * v[2]), g = (int)(230 * v[0]), b = (int)(55 * v[1]);
	} else if (!strcmp(type, "mem")) {
		r = 0, g = 190 + (int)(50 * v[1]), b = (int)(210 * v[0]);
	} else if (!strcmp(type, "io")) {
		r = g = 80 + (int)(60 * v[0]), b = 190 + (int)(55 * v[1]);
	} else if (!strcmp(type, "red")) {
		r = 200 + (int)(55 * v[0]), g = b = 50 + (int)(80 * v[0]);
	} else if (!strcmp(type, "green")) {
		g = 200 + (int)(55 * v[0]), r = b = 50 + (int)(60 * v[0]);
	} else if (!strcmp(type, "blue")) {
		b = 205 + (int)(50 * v[0]), r = g = 80 + (int)(60 * v[0]);
	} else if (!strcmp(type, "yellow")) {
		r = g = 175 + (int)(55 * v[0]), b = 50 + (int)(20 * v[0]);
	} else if (!strcmp(type, "purple")) {
		r = b = 190 + (int)(65 * v[0]), g = 80 + (int)(60 * v[0]);
	} else if (!strcmp(type, "aqua")) {
		r = 50 + (int)(60 * v[0]), g = b = 165 + (int)(55 * v[0]);
	} else if (!strcmp(type, "orange")) {
		r = 190 + (int)(65 * v[0]), g = 90 + (int)(65 * v[0]), b = 0;
	} else {
		return -1;
	}
	if (size < 20)
		return -1;
	int c[3] = { r, g, b }; /* "rgb(r,g,b)" without printf: once per frame */
	size_t n = 0;
	memcpy(buf, "rgb(", 4);
	n = 4;
	for (int i = 0; i < 3; i++) {
		int x = c[i];
		if (x >= 100)
			buf[n++] = (char)('0' + x / 100);
		if (x >= 10)
			buf[n++] = (char)('0' + x / 10 % 10);
		buf[n++] = (char)('0' + x % 10);
		buf[n++] = i < 2 ? ',' : ')';
	}
	buf[n] = 0;
	return 0;
}

/* ---- name hashing -------------------------------------------------------- */

/* One code point from s[0..len); invalid UTF-8 yields the byte itself. */
static size_t utf8_next(const unsigned char *s, size_t len, uint32_t *cp)
{
	unsigned char c = s[0];
	size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
	if (n == 0 || n > len) {
		*cp = c;
		return 1;
	}
	uint32_t v = n == 1 ? c : n == 2 ? (c & 0x1fu) : n == 3 ? (c & 0x0fu) : (c & 0x07u);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*cp = c;
			return 1;
		}
		v = (v << 6) | (s[i] & 0x3fu);
	}
	*cp = v;
	return n;
}

static uint32_t codepoint_sum(const unsigned char *s, size_t len)
{
	uint32_t sum = 0, cp;
	size_t i = 0;
	/* 8 ASCII bytes at a time (a name's bytes are nearly all ASCII, and
	 * Java's run to 100 and more): their byte sum, pairs then a multiply */
	for (; i + 8 <= len; i += 8) {
		uint64_t w;
		memcpy(&w, s + i, 8);
		if (w & 0x8080808080808080ull)
			break;
		uint64_t pairs = (w & 0x00ff00ff00ff00ffull) + ((w >> 8) & 0x00ff00ff00ff00ffull);
		sum += (uint32_t)((pairs * 0x0001000100010001ull) >> 48);
	}
	while (i < len) {
		if (s[i] < 0x80) { /* ASCII, nearly every byte: its own code point */
			sum += s[i++];
			continue;
		}
		i += utf8_next(s + i, len - i, &cp);
		sum += cp;
	}
	return sum;
}

/* The first `max` code points (or, from_end, those of the reversed name),
 * after flamegraph.pl's module strip s/.(.*?)`// . */
static size_t decode(const unsigned char *s, size_t len, uint32_t *out, size_t max, int from_end)
{
	uint32_t small[256];
	uint32_t *all = len <= 256 ? small : malloc(len * sizeof *all);
	if (!all)
		return 0;
	size_t n = 0;
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		i += utf8_next(s + i, len - i, &cp);
		all[n++] = cp;
	}
	if (from_end)
		for (size_t i = 0; i < n / 2; i++) {
			uint32_t tmp = all[i];
			all[i] = all[n - 1 - i];
			all[n - 1 - i] = tmp;
		}
	size_t start = 0;
	for (size_t i = 1; i < n; i++)
		if (all[i] == '`') {
			start = i + 1;
			break;
		}
	size_t m = 0;
	for (size_t i = start; i < n && m < max; i++)
		out[m++] = all[i];
	if (all != small)
		free(all);
	return m;
}

static double namehash(const uint32_t *cp, size_t n)
{
	double vector = 0, weight = 1, max = 1;
	int mod = 10;
	for (size_t i = 0; i < n; i++) {
		int v = (int)(cp[i] % (uint32_t)mod);
		vector += ((double)v / (mod++ - 1)) * weight;
		max += weight;
		weight *= 0.70;
		if (mod > 12)
			break;
	}
	return 1 - vector / max;
}
