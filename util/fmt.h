/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/fmt.h — fast number formatting for writers that print millions
 * of numbers.
 *
 * uf_fmt_fixed() prints like printf("%.*f") for 0..3 decimals: it scales
 * and rounds in integer arithmetic, and falls back to snprintf when the
 * scaled value sits within rounding noise of a .5 tie (where only the
 * exact binary value can decide), so the output is always printf's.
 */
#ifndef UF_UTIL_FMT_H
#define UF_UTIL_FMT_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Writes the decimal digits of v; returns the length (no NUL written). */
static inline size_t uf_fmt_u64(char *buf, uint64_t v)
{
	char tmp[24];
	size_t n = 0;
	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

/* printf("%.*f", decimals, v) into buf (>= 32 bytes); returns the length. */
static inline size_t uf_fmt_fixed(char *buf, double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	double t = fabs(v) * scale[decimals];
	double r = nearbyint(t);
	double frac = t - floor(t);
	if (!(t < 9e15) || decimals > 3 || fabs(frac - 0.5) < 1e-6) {
		/* a value too long for the 32 bytes (a percentage of 1e27 and
		 * more: absurd inputs) in exponent form, never cut: snprintf's
		 * return value would have counted bytes it did not write
		 * (found by fuzz-svg: the tooltip got NULs and stack bytes) */
		int n = snprintf(buf, 32, "%.*f", decimals, v);
		if (n >= 32)
			n = snprintf(buf, 32, "%.*e", decimals, v);
		return n > 0 ? (size_t)n : 0;
	}
	uint64_t u = (uint64_t)r;
	size_t n = 0;
	if (signbit(v))
		buf[n++] = '-';
	uint64_t ip = u / (uint64_t)scale[decimals], fp = u % (uint64_t)scale[decimals];
	n += uf_fmt_u64(buf + n, ip);
	if (decimals) {
		buf[n++] = '.';
		for (int d = decimals - 1; d >= 0; d--) {
			buf[n + (size_t)d] = (char)('0' + fp % 10);
			fp /= 10;
		}
		n += (size_t)decimals;
	}
	return n;
}

/* The value printf("%.*f") shows for v (0..3 decimals), as a double:
 * what strtod() of that text returns, without the text. */
static inline double uf_fixed_value(double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	double t = v * scale[decimals];
	double frac = fabs(t) - floor(fabs(t));
	if (decimals > 3 || !(fabs(t) < 9e15) || fabs(frac - 0.5) < 1e-6) {
		char buf[64];
		snprintf(buf, sizeof buf, "%.*f", decimals, v);
		return strtod(buf, NULL);
	}
	return nearbyint(t) / scale[decimals]; /* correctly rounded, like strtod */
}

#endif
