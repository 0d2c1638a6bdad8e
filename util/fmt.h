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
#include <string.h>

/* Decimal digits of v (1 for 0), without a division loop: the bit
 * length gives the digits to within one (1233 / 4096 ~ log10 2), and one
 * compare with a power of ten decides.  v | 1 has v's digits (a power of
 * ten above 1 is even) and makes 0 count as 1. */
static inline size_t uf_dec_digits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull, 1000000000000ull,
		10000000000000ull, 100000000000000ull, 1000000000000000ull, 10000000000000000ull,
		100000000000000000ull, 1000000000000000000ull, 10000000000000000000ull,
	};
	uint64_t w = v | 1;
	size_t d = ((64u - (unsigned)__builtin_clzll(w)) * 1233u) >> 12;
	return d + (d < 20 && w >= pow10[d]);
}

/* Writes the decimal digits of v; returns the length (no NUL written).
 * From the last digits back, two at a time from a table of pairs, at
 * their final places (no reversal). */
static inline size_t uf_fmt_u64(char *buf, uint64_t v)
{
	static const char pairs[201] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
				       "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
				       "8081828384858687888990919293949596979899";
	size_t n = uf_dec_digits(v);
	char *p = buf + n;
	while (v >= 100) {
		const char *two = pairs + 2 * (v % 100);
		v /= 100;
		p -= 2;
		p[0] = two[0];
		p[1] = two[1];
	}
	if (v >= 10) {
		p[-2] = pairs[2 * v];
		p[-1] = pairs[2 * v + 1];
	} else {
		p[-1] = (char)('0' + v);
	}
	return n;
}

/* nearbyint(v) in the default rounding mode (to nearest, ties to even),
 * without libm: the release binary links libm statically and glibc's
 * static nearbyint is an ifunc that needs ld.so's CPU data (it does not
 * link beside a shared libc).  Below 2^52 adding 2^52 leaves no fraction
 * bits, so the addition rounds |v| to an integer as the FPU rounds, ties
 * to even, and subtracting 2^52 again is exact; at 2^52 and above (and
 * for inf and NaN) v is its own integer.  The sign is put back, so
 * -0.4 gives -0.0 as nearbyint does.  Needs strict IEEE arithmetic: the
 * build never uses -ffast-math. */
static inline double uf_round_even(double v)
{
	double a = fabs(v);
	if (!(a < 0x1p52))
		return v;
	return copysign((a + 0x1p52) - 0x1p52, v);
}

/* printf("%.*f", decimals, v) into buf (>= 32 bytes); returns the length. */
static inline size_t uf_fmt_fixed(char *buf, double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	double t = fabs(v) * scale[decimals];
	/* below 9e15 < 2^53 the integer part is exact and so is the fraction;
	 * away from a tie nearbyint() is that part plus (frac > 0.5): no libm
	 * call (two a number, seven numbers a frame) */
	uint64_t whole = t < 9e15 ? (uint64_t)t : 0;
	double frac = t - (double)whole;
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
	uint64_t u = whole + (frac > 0.5);
	size_t n = 0, dec = (size_t)decimals;
	if (signbit(v))
		buf[n++] = '-';
	/* u's digits once, the point put in before the last `dec` of them
	 * (a division and a digit loop a number fewer: seven numbers a frame) */
	size_t nd = uf_fmt_u64(buf + n, u);
	if (dec == 0)
		return n + nd;
	if (nd > dec) {
		char *p = buf + n + nd;
		for (size_t k = 0; k < dec; k++, p--)
			p[0] = p[-1];
		p[0] = '.';
		return n + nd + 1;
	}
	char digits[4]; /* u < 10^dec: "0.", zeros, u's digits */
	memcpy(digits, buf + n, nd);
	buf[n++] = '0';
	buf[n++] = '.';
	for (size_t z = nd; z < dec; z++)
		buf[n++] = '0';
	memcpy(buf + n, digits, nd);
	return n + nd;
}

/* v >= 0 in whole tenths as printf("%.1f") rounds it, into *tenths;
 * 0 (nothing set) for a negative, huge or NaN v, or one within rounding
 * noise of a tie, which the caller prints with uf_fmt_fixed.  A flame
 * graph's x and width are tenths of a pixel: the width is the difference
 * of the two edges' tenths (the edges as printed), in integers. */
static inline int uf_tenths(double v, uint64_t *tenths)
{
	double t = v * 10;
	if (!(t >= 0 && t < 9e15))
		return 0;
	uint64_t whole = (uint64_t)t;
	double frac = t - (double)whole;
	if (fabs(frac - 0.5) < 1e-6)
		return 0;
	*tenths = whole + (frac > 0.5);
	return 1;
}

/* printf("%.1f") of tenths / 10 into buf (>= 22 bytes); returns the length. */
static inline size_t uf_fmt_tenths(char *buf, uint64_t tenths)
{
	size_t n = uf_fmt_u64(buf, tenths / 10);
	buf[n] = '.';
	buf[n + 1] = (char)('0' + tenths % 10);
	return n + 2;
}

/* The value printf("%.*f") shows for v (0..3 decimals), as a double:
 * what strtod() of that text returns, without the text. */
static inline double uf_fixed_value(double v, int decimals)
{
	static const double scale[] = { 1, 10, 100, 1000 };
	double t = v * scale[decimals], a = fabs(t);
	uint64_t whole = a < 9e15 ? (uint64_t)a : 0; /* as in uf_fmt_fixed */
	double frac = a - (double)whole;
	if (decimals > 3 || !(a < 9e15) || fabs(frac - 0.5) < 1e-6) {
		char buf[64];
		snprintf(buf, sizeof buf, "%.*f", decimals, v);
		return strtod(buf, NULL);
	}
	double r = (double)(whole + (frac > 0.5)); /* nearbyint(t), its sign kept */
	return (signbit(t) ? -r : r) / scale[decimals]; /* correctly rounded, like strtod */
}

#endif
