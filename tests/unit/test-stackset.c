/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/unit/test-stackset.c — the stack set stores each address stack
 * once, keeps ids dense and stable, and grows with unique stacks only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "sampler/sampler.h"

static void stackset_dedups(void **state)
{
	struct sampler_stackset s;
	sampler_stackset_init(&s);
	uint64_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 4 }, c[] = { 1, 2 };
	assert_int_equal(sampler_stackset_add(&s, a, 3), 0);
	assert_int_equal(sampler_stackset_add(&s, b, 3), 1);
	assert_int_equal(sampler_stackset_add(&s, c, 2), 2);
	for (int i = 0; i < 1000; i++)
		assert_int_equal(sampler_stackset_add(&s, b, 3), 1);
	assert_int_equal(s.nstacks, 3);
	assert_int_equal(s.nframes, 8);
	size_t n;
	const uint64_t *f = sampler_stackset_get(&s, 1, &n);
	assert_int_equal(n, 3);
	assert_int_equal(f[2], 4);
	assert_int_equal(sampler_stackset_check(&s), 0);
	sampler_stackset_release(&s);
	assert_null(s.frames);
	assert_int_equal(s.nstacks, 0);
}

static void stackset_rejects_empty(void **state)
{
	struct sampler_stackset s;
	sampler_stackset_init(&s);
	uint64_t a[] = { 1 };
	assert_int_equal(sampler_stackset_add(&s, a, 0), -EINVAL);
	sampler_stackset_release(&s);
}

static void stackset_grows_with_unique_stacks(void **state)
{
	struct sampler_stackset s;
	sampler_stackset_init(&s);
	uint64_t pcs[40];
	for (uint64_t i = 0; i < 20000; i++) {
		size_t n = 1 + i % 40;
		for (size_t k = 0; k < n; k++)
			pcs[k] = i * 1000 + k;
		assert_int_equal(sampler_stackset_add(&s, pcs, n), (int64_t)i);
	}
	for (uint64_t i = 0; i < 20000; i += 97) {
		size_t n = 1 + i % 40;
		for (size_t k = 0; k < n; k++)
			pcs[k] = i * 1000 + k;
		assert_int_equal(sampler_stackset_add(&s, pcs, n), (int64_t)i);
	}
	assert_int_equal(s.nstacks, 20000);
	assert_true((size_t)s.slots_mask + 1 >= 2 * 20000);
	assert_int_equal(sampler_stackset_check(&s), 0);
	sampler_stackset_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stackset_dedups),
		cmocka_unit_test(stackset_rejects_empty),
		cmocka_unit_test(stackset_grows_with_unique_stacks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
