/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/uklibs/app/main.c — the app of the Unikraft-like example: one
 * round is 20 units across five libraries (uklibs.h); run for N seconds
 * (argv[1]) or -r ROUNDS as the other examples. */
#include "../uklibs.h"
#include "../../linux/main-common.h"

volatile unsigned long uf_sink;

static UF_NOINLINE void app_round(void)
{
	UF_BURN(4);
	uk_malloc(6);
	UF_NOTAIL();
	uk_sched_yield();
	UF_NOTAIL();
	tcp_input();
	UF_NOTAIL();
}

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run))
		app_round();
	return 0;
}
