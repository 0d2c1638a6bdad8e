/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-leaf.c — the frameless-leaf case, built the way
 * profiling guides recommend (-O1 -fno-omit-frame-pointer): alpha, beta
 * and gamma each call the small leaf spin() with work 1 : 3 : 6 (true
 * shares 10/30/60 %, examples/workloads/app-leaf.truth).  GCC gives spin()
 * no frame of its own, so a frame-pointer walk from inside it skips its
 * caller (every stack reads main;spin); CFI unwinding sees alpha/beta/gamma.
 */
#include "../workloads/workloads.h"
#include "main-common.h"

UF_NOINLINE void spin(unsigned long units);
UF_NOINLINE void alpha(void);
UF_NOINLINE void beta(void);
UF_NOINLINE void gamma_(void);
UF_NOINLINE void leaf_round(void);

volatile unsigned long uf_sink;

UF_NOINLINE void spin(unsigned long units) { UF_BURN(units); }
UF_NOINLINE void alpha(void) { spin(1); UF_NOTAIL(); }
UF_NOINLINE void beta(void) { spin(3); UF_NOTAIL(); }
UF_NOINLINE void gamma_(void) { spin(6); UF_NOTAIL(); }

UF_NOINLINE void leaf_round(void)
{
	alpha();
	beta();
	gamma_();
	UF_NOTAIL();
}

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run))
		leaf_round();
	return 0;
}
