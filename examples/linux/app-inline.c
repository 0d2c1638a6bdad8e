/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-inline.c — a hot function inlined into its caller
 * at -O2, for record --inline: pipeline() runs 2 units of its own and
 * mix() (always inlined, so no symbol and no frame of its own) 6; other()
 * runs 2.  True shares (examples/workloads/app-inline.truth): mix_[i] 60 %
 * self under pipeline, pipeline 20 % self and 80 % total, other 20 %.
 * Without --inline, mix's samples are pipeline's.
 */
#include "../workloads/workloads.h"
#include "main-common.h"

static inline __attribute__((always_inline)) void mix(unsigned long units)
{
	UF_BURN(units);
}

UF_NOINLINE void pipeline(void)
{
	UF_BURN(2);
	mix(6);
	UF_NOTAIL();
}

UF_NOINLINE void other(void)
{
	UF_BURN(2);
}

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run)) {
		pipeline();
		UF_NOTAIL();
		other();
		UF_NOTAIL();
	}
	return 0;
}
