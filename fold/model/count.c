/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * fold/model/count.c — a count as text: the shortest decimal that reads
 * back as the same double, never with an exponent (folded text has no
 * exponent syntax flamegraph.pl reads).
 *
 * The model's, not the folded writer's: the writer, the block
 * (fold/embed), record's tables and render's tooltips all print counts
 * with it, and every one of them must print a count the same way.
 *
 * Trade-off: whole counts below 1e15 (nearly all) take the integer fast
 * path; fractions try 1..FOLD_MAX_COUNT_CHARS digits until one reads
 * back, a few snprintf/strtod rounds for the rare fractional count.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fold/model/model.h"
#include "util/fmt.h"

/* An integral v >= 1e15 as the fewest significant digits that read back
 * exactly, padded with zeros (1e62 is "1" and 62 zeros, not the 63 exact
 * digits of the double nearest to it).  Returns snprintf's length. */
static int big_integer(char *buf, size_t size, double v)
{
	char e[40];
	int p = 0;
	while (p < 17 && (snprintf(e, sizeof e, "%.*e", p, v), strtod(e, NULL) != v))
		p++;
	int exp = atoi(strchr(e, 'e') + 1);
	if (p > exp)
		return snprintf(buf, size, "%.0f", v);
	size_t n = 0, need = (size_t)exp + 1;
	if (need >= size)
		return (int)need;
	buf[n++] = e[0];
	for (int k = 0; k < p; k++)
		buf[n++] = e[2 + k];
	while (n < need)
		buf[n++] = '0';
	buf[n] = 0;
	return (int)n;
}

int fold_format_count(char *buf, size_t size, double v)
{
	if (!(v >= 0) || isinf(v)) /* readers never make these; show 0 */
		return snprintf(buf, size, "0");
	if (v < 1e15 && v == (double)(uint64_t)v && size >= 24) { /* whole: no floor() call */
		size_t n = uf_fmt_u64(buf, (uint64_t)v);
		buf[n] = 0;
		return (int)n;
	}
	int n;
	if (v == floor(v)) { /* every double >= 2^53 is an integer: digits, no ".0" */
		n = big_integer(buf, size, v);
		if (n >= 0 && (size_t)n < size)
			return n;
	} else {
		for (int d = 1; d <= FOLD_MAX_COUNT_CHARS; d++) {
			n = snprintf(buf, size, "%.*f", d, v);
			if (n < 0 || (size_t)n >= size)
				break;
			if (strtod(buf, NULL) == v)
				return n;
		}
	}
	snprintf(buf, size, "%.6e", v); /* for display only: not exact */
	return -ERANGE;
}
