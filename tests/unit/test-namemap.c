/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-namemap.c — render/namemap.c, the --cp and --nameattr
 * maps: many names (correctness only; bench/namemap.sh has the timings),
 * replacement, the sorted save, empty and non-regular files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "render/namemap.h"

#define MANY 100000

static void namemap_many_names(void **state)
{
	struct namemap m = { 0 };
	char name[32], val[32];
	for (int i = 0; i < MANY; i++) {
		int n = snprintf(name, sizeof name, "fn_%d", (i * 7919) % MANY);
		snprintf(val, sizeof val, "rgb(%d,0,0)", i % 256);
		assert_int_equal(namemap_add(&m, name, (size_t)n, val), 0);
	}
	assert_int_equal(m.n, MANY);
	for (int i = 0; i < MANY; i++) {
		int n = snprintf(name, sizeof name, "fn_%d", (i * 7919) % MANY);
		snprintf(val, sizeof val, "rgb(%d,0,0)", i % 256);
		const char *v = namemap_get(&m, name, (size_t)n);
		assert_non_null(v);
		assert_string_equal(v, val);
	}
	assert_null(namemap_get(&m, "fn_", 3));
	assert_null(namemap_get(&m, "fn_100000", 9));
	namemap_release(&m);
}

static void namemap_names_with_any_byte(void **state)
{
	struct namemap m = { 0 };
	assert_int_equal(namemap_add(&m, "a\0b", 3, "x"), 0);
	assert_int_equal(namemap_add(&m, "a\0c", 3, "y"), 0);
	assert_int_equal(namemap_add(&m, "a", 1, "z"), 0);
	assert_string_equal(namemap_get(&m, "a\0b", 3), "x");
	assert_string_equal(namemap_get(&m, "a\0c", 3), "y");
	assert_string_equal(namemap_get(&m, "a", 1), "z");
	assert_null(namemap_get(&m, "a\0", 2));
	namemap_release(&m);
}

static char *tmpfile_with(const char *text)
{
	char *path = strdup("/tmp/uf-namemap.XXXXXX");
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	return path;
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	assert_non_null(f);
	static char buf[4096];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = 0;
	fclose(f);
	return buf;
}

/* Later lines win; the save is sorted, one line per name; an addition
 * after loading replaces rather than duplicates. */
static void namemap_load_replace_save(void **state)
{
	char *p = tmpfile_with("b->rgb(1,1,1)\nnoise\na->rgb(2,2,2)\nb->rgb(3,3,3)\r\n");
	struct namemap m;
	struct uf_err err = { 0 };
	assert_int_equal(namemap_load(&m, p, "->", 0, &err), 0);
	assert_int_equal(m.n, 2);
	assert_string_equal(namemap_get(&m, "b", 1), "rgb(3,3,3)");
	assert_int_equal(namemap_add(&m, "c", 1, "rgb(4,4,4)"), 0);
	assert_int_equal(namemap_add(&m, "a", 1, "rgb(5,5,5)"), 0);
	assert_int_equal(namemap_save_palette(&m, p, &err), 0);
	assert_string_equal(slurp(p), "a->rgb(5,5,5)\nb->rgb(3,3,3)\nc->rgb(4,4,4)\n");
	/* the index follows the sort: lookups still work after a save */
	assert_string_equal(namemap_get(&m, "c", 1), "rgb(4,4,4)");
	assert_int_equal(namemap_add(&m, "d", 1, "rgb(6,6,6)"), 0);
	assert_int_equal(m.n, 4);
	namemap_release(&m);
	unlink(p);
	free(p);
}

/* An empty file, a missing one (allowed or not), a FIFO: no hang, no UB. */
static void namemap_odd_files(void **state)
{
	char *p = tmpfile_with("");
	struct namemap m;
	struct uf_err err = { 0 };
	assert_int_equal(namemap_load(&m, p, "->", 0, &err), 0);
	assert_int_equal(m.n, 0);
	assert_null(namemap_get(&m, "a", 1));
	assert_int_equal(namemap_save_palette(&m, p, &err), 0);
	assert_string_equal(slurp(p), "");
	namemap_release(&m);
	unlink(p);
	assert_int_equal(namemap_load(&m, p, "->", 1, &err), 0);
	assert_int_equal(m.n, 0);
	assert_true(namemap_load(&m, p, "\t", 0, &err) < 0);
	assert_int_equal(mkfifo(p, 0600), 0);
	uf_err_clear(&err);
	assert_true(namemap_load(&m, p, "->", 1, &err) < 0);
	assert_string_equal(err.why, "cannot open: not a regular file");
	unlink(p);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(namemap_many_names),
		cmocka_unit_test(namemap_names_with_any_byte),
		cmocka_unit_test(namemap_load_replace_save),
		cmocka_unit_test(namemap_odd_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
