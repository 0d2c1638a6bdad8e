/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-detect.c — fold_detect_format, the one format detector
 * every reader and the CLI's input splitter use (fold/detect.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fold/fold.h"

static enum fold_format det(const char *s, int eof)
{
	return fold_detect_format(s, strlen(s), eof);
}

static void detect_svg_after_any_blank(void **state)
{
	assert_int_equal(det("<svg>", 1), FOLD_FMT_SVG);
	assert_int_equal(det("\n<svg", 0), FOLD_FMT_SVG);
	assert_int_equal(det(" \t\r\n\v\f<?xml", 0), FOLD_FMT_SVG);
	assert_int_equal(det("\xef\xbb\xbf<svg", 0), FOLD_FMT_SVG);
	assert_int_equal(det("\xef\xbb\xbf\n <svg", 0), FOLD_FMT_SVG);
}

static void detect_folded(void **state)
{
	assert_int_equal(det("a;b 1\n", 0), FOLD_FMT_FOLDED);
	assert_int_equal(det("\n\na;<b> 1\n", 0), FOLD_FMT_FOLDED);
	assert_int_equal(det("\xef\x41", 1), FOLD_FMT_FOLDED);   /* not a BOM */
	assert_int_equal(det("\xef\x41\n", 0), FOLD_FMT_FOLDED);
	assert_int_equal(det("", 1), FOLD_FMT_FOLDED);            /* empty: folded (no stacks) */
	assert_int_equal(det("\n \n", 1), FOLD_FMT_FOLDED);
}

static void detect_asks_for_more_only_while_blank(void **state)
{
	assert_int_equal(det("", 0), FOLD_FMT_MORE);
	assert_int_equal(det("\n\n  ", 0), FOLD_FMT_MORE);
	assert_int_equal(det("\xef\xbb", 0), FOLD_FMT_MORE);     /* a partial BOM */
	assert_int_equal(det("\xef\xbb\xbf", 0), FOLD_FMT_MORE);
}

/* The bytes alone in a heap block of their exact size, so ASan sees a
 * read one past the end (a string literal's NUL would hide it). */
static enum fold_format det_exact(const char *s, size_t len, int eof)
{
	char *b = malloc(len ? len : 1);
	memcpy(b, s, len);
	enum fold_format f = fold_detect_format(b, len, eof);
	free(b);
	return f;
}

/* A BOM cut by the end of what was read so far: ask for more; at the end
 * of the input the bytes are content (folded text), never read past. */
static void detect_partial_bom_at_buffer_end(void **state)
{
	assert_int_equal(det_exact("\xef", 1, 0), FOLD_FMT_MORE);
	assert_int_equal(det_exact("\xef\xbb", 2, 0), FOLD_FMT_MORE);
	assert_int_equal(det_exact("\xef", 1, 1), FOLD_FMT_FOLDED);
	assert_int_equal(det_exact("\xef\xbb", 2, 1), FOLD_FMT_FOLDED);
	assert_int_equal(det_exact("\xef\xbb\xbf", 3, 1), FOLD_FMT_FOLDED);
	assert_int_equal(det_exact("\xef\xbb<svg", 6, 1), FOLD_FMT_FOLDED);   /* not a BOM: content */
	assert_int_equal(det_exact("\xef<svg", 5, 1), FOLD_FMT_FOLDED);
}

/* gzip by its magic bytes; perf script by its first sample header. */
static void detect_gzip_and_perf(void **state)
{
	assert_int_equal(det("\x1f\x8b\x08", 0), FOLD_FMT_GZIP);
	assert_int_equal(det("\x1f", 0), FOLD_FMT_MORE);
	assert_int_equal(det("\x1f", 1), FOLD_FMT_FOLDED);
	const char *perf = "# ========\n# cmdline : perf record -g\n#\n"
			   "java 4579 [001] 1.2: 10101 cpu-clock: \n\t  7f3c main (/bin/x)\n\n";
	assert_int_equal(det(perf, 1), FOLD_FMT_PERF);
	/* a tracepoint header (arguments after the event): the frame line decides */
	assert_int_equal(det("a.out 12 [0] 1.0: sched:sched_switch: prev=1\n\t 1234 f (/x)\n", 1),
			 FOLD_FMT_PERF);
	assert_int_equal(det("a.out 12 [0] 1.0: sched:sched_switch: prev=1\n", 0), FOLD_FMT_MORE);
	assert_int_equal(det("# comment only\n", 0), FOLD_FMT_MORE);
	assert_int_equal(det("main;foo 3\n", 0), FOLD_FMT_FOLDED);
	assert_int_equal(det("java 4579", 0), FOLD_FMT_MORE); /* the line is not complete */
	size_t n = strlen(perf);
	for (size_t len = 0; len <= n; len++) { /* invariant 1 for perf text */
		enum fold_format f = fold_detect_format(perf, len, 0);
		assert_true(f == FOLD_FMT_MORE || f == FOLD_FMT_PERF);
	}
}

/* Invariant 1: a longer prefix never changes a decided answer, so the
 * splitter (4 KiB prefix) and the reader (512 bytes) agree. */
static void detect_prefix_stable(void **state)
{
	const char *in[] = { "\n\n<svg a='1'>x", "main;f 3\n<svg", "\xef\xbb\xbf\t\ta 1\n" };
	for (size_t k = 0; k < sizeof in / sizeof in[0]; k++) {
		size_t n = strlen(in[k]);
		enum fold_format full = fold_detect_format(in[k], n, 1);
		for (size_t len = 0; len <= n; len++) {
			enum fold_format f = fold_detect_format(in[k], len, 0);
			assert_true(f == FOLD_FMT_MORE || f == full);
		}
	}
}

static void detect_refuses_endless_blanks(void **state)
{
	size_t n = FOLD_DETECT_MAX + 10;
	char *b = malloc(n);
	assert_non_null(b);
	memset(b, '\n', n);
	b[n - 1] = '<';
	assert_int_equal(fold_detect_format(b, FOLD_DETECT_MAX, 0), FOLD_FMT_UNKNOWN);
	/* the same window decides, however much a caller holds */
	assert_int_equal(fold_detect_format(b, n, 1), FOLD_FMT_UNKNOWN);
	assert_int_equal(fold_detect_format(b, FOLD_DETECT_MAX - 1, 0), FOLD_FMT_MORE);
	free(b);
}

/* A NUL byte up to the end of the first content line that is no stack
 * line: binary, refused (issue 31 item 4); the answer is stable over every
 * prefix; a NUL inside a name of a line ending in a count stays text. */
static void detect_binary(void **state)
{
	static const char elf[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\nusage: ls 1\n";
	assert_int_equal(det_exact(elf, sizeof elf - 1, 1), FOLD_FMT_BINARY);
	for (size_t len = 12; len < sizeof elf; len++)
		assert_int_equal(det_exact(elf, len, 0), FOLD_FMT_BINARY);
	assert_int_equal(det_exact(elf, 8, 0), FOLD_FMT_MORE); /* the line is cut */
	assert_int_equal(det_exact(elf, 8, 1), FOLD_FMT_BINARY);
	static const char late[] = "# c\n\nmain;a\0b\n";
	assert_int_equal(det_exact(late, sizeof late - 1, 1), FOLD_FMT_BINARY);
	static const char after[] = "main;a 3\nx\0 1\n"; /* past the first stack line: the reader's */
	assert_int_equal(det_exact(after, sizeof after - 1, 1), FOLD_FMT_FOLDED);
	static const char name[] = "main;byte_\0_end 1\r\n"; /* a NUL in a name: a stack line */
	assert_int_equal(det_exact(name, sizeof name - 1, 1), FOLD_FMT_FOLDED);
	static const char comment[] = "#\0\nmain 1\n";
	assert_int_equal(det_exact(comment, sizeof comment - 1, 1), FOLD_FMT_BINARY);
	for (size_t len = 0; len < sizeof late; len++) {
		enum fold_format f = det_exact(late, len, 0);
		assert_true(f == FOLD_FMT_MORE || f == FOLD_FMT_BINARY);
	}
	assert_string_equal(fold_format_name(FOLD_FMT_BINARY), "binary");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(detect_svg_after_any_blank),
		cmocka_unit_test(detect_folded),
		cmocka_unit_test(detect_gzip_and_perf),
		cmocka_unit_test(detect_asks_for_more_only_while_blank),
		cmocka_unit_test(detect_partial_bom_at_buffer_end),
		cmocka_unit_test(detect_prefix_stable),
		cmocka_unit_test(detect_refuses_endless_blanks),
		cmocka_unit_test(detect_binary),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
