/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/fuzz/fuzz-detect.c — the one format detector every reader and the
 * CLI ask (fold_detect_format, fold/in/detect.c).
 *
 * Input: the first bytes of an input.  Oracles (fold/detect.c's
 * invariants): with the whole input (eof) the answer is decided (never
 * "read more"); every prefix answers "read more" or that same decision,
 * so a caller holding fewer bytes (the splitter, a pipe) can never read
 * the input as another format than the reader does.
 */
#include "tests/fuzz/fuzz.h"

#include "fold/fold.h"

static int fuzz_input(const uint8_t *data, size_t size)
{
	enum fold_format whole = fold_detect_format(data, size, 1);
	if (whole == FOLD_FMT_MORE)
		fuzz_fail("undecided on the whole input of %zu bytes", size);
	if (fold_format_name(whole) == NULL)
		fuzz_fail("no name for format %d", (int)whole);
	/* every prefix up to 64 bytes, then doubling, then the whole */
	for (size_t k = 0;; k = k < 64 ? k + 1 : k * 2 < size ? k * 2 : size) {
		if (k > size)
			k = size;
		enum fold_format f = fold_detect_format(data, k, 0);
		if (f != FOLD_FMT_MORE && f != whole)
			fuzz_fail("%zu bytes say %s, all %zu say %s", k, fold_format_name(f), size,
				  fold_format_name(whole));
		if (k == size)
			break;
	}
	return 0;
}

FUZZ_READER(fuzz_input)
