/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-test-1.c — the thesis workload app-test-1 as a Linux
 * program: main calls function_1, function_2, function_3 with work
 * 1 : 3 : 6 (true shares 10/30/60 %, examples/workloads/app-test-1.truth).
 * Built as a classic executable, as a PIE (app-test-1-pie) and against the
 * workloads in a shared library (app-test-1-so).
 */
#include "../workloads/workloads.h"
#include "main-common.h"

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run))
		app_test_1_round();
	return 0;
}
