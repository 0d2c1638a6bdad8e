/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/workloads/workloads.c — the thesis workloads; see workloads.h.
 *
 * app-test-2's functions are named t2_function_N so that both workloads
 * can live in one kernel image without clashing with app-test-1's names.
 */
#include "workloads.h"

volatile unsigned long uf_sink;

UF_NOINLINE void function_1(void) { UF_BURN(1); }
UF_NOINLINE void function_2(void) { UF_BURN(3); }
UF_NOINLINE void function_3(void) { UF_BURN(6); }

UF_NOINLINE void app_test_1_round(void)
{
	function_1();
	function_2();
	function_3();
	UF_NOTAIL();
}

UF_NOINLINE void t2_function_3(void) { UF_BURN(2); }
UF_NOINLINE void t2_function_4(void) { UF_BURN(2); }
UF_NOINLINE void t2_function_5(void) { UF_BURN(1); }
UF_NOINLINE void t2_function_1(void)
{
	t2_function_3();
	UF_NOTAIL();
}
UF_NOINLINE void t2_function_2(void)
{
	t2_function_4();
	t2_function_5();
	UF_NOTAIL();
}

UF_NOINLINE void app_test_2_round(void)
{
	t2_function_1();
	t2_function_2();
	UF_NOTAIL();
}
