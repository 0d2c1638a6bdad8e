/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-qsort.c — a call back through the C library: each
 * round runs function_1 and function_2 (1 : 3 units) directly, then sorts
 * two integers with qsort(), whose single comparison calls cmp_items (6
 * units) from inside libc.  True shares 10/30/60 %
 * (examples/workloads/app-qsort.truth).  libc is built without frame
 * pointers, so only CFI unwinding gets from cmp_items back through qsort's
 * internals to sort_round and main.
 */
#include <stdlib.h>

#include "../workloads/workloads.h"
#include "main-common.h"

UF_NOINLINE void sort_round(void);
UF_NOINLINE void app_qsort_round(void);

static int cmp_items(const void *a, const void *b)
{
	UF_BURN(6);
	return *(const int *)a - *(const int *)b;
}

UF_NOINLINE void sort_round(void)
{
	int v[2] = { 2, 1 };   /* two items: exactly one comparison */
	qsort(v, 2, sizeof v[0], cmp_items);
	uf_sink += (unsigned long)v[0];
}

UF_NOINLINE void app_qsort_round(void)
{
	function_1();
	function_2();
	sort_round();
	UF_NOTAIL();
}

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run))
		app_qsort_round();
	return 0;
}
