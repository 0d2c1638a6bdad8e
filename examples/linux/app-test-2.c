/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-test-2.c — the thesis workload app-test-2 as a Linux
 * program: t2_function_1 -> t2_function_3 and t2_function_2 ->
 * t2_function_4 + t2_function_5 with work 2 : 2 : 1
 * (examples/workloads/app-test-2.truth).
 */
#include "../workloads/workloads.h"
#include "main-common.h"

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run))
		app_test_2_round();
	return 0;
}
