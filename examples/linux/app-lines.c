/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/linux/app-lines.c — one function whose time splits over two
 * source lines, for source positions in tooltips and record --lines:
 * lines_hot() burns 6 units on the line marked UF-LINE:hot-a and 3 on the
 * line marked UF-LINE:hot-b; lines_other() burns 1.  Built -O2 without
 * frame pointers.  True shares (examples/workloads/app-lines.truth, the
 * tests put in the line numbers from the markers): hot-a 60 %, hot-b 30 %
 * of all samples (67 % and 33 % of lines_hot's), lines_other 10 %; main's
 * time is at its two call sites, call-hot 90 % and call-other 10 %.
 * Keep each marker on the line of its statement: the tests read them.
 */
#include "../workloads/workloads.h"
#include "main-common.h"

UF_NOINLINE void lines_hot(void)
{
	UF_BURN(6); /* UF-LINE:hot-a */
	UF_NOTAIL();
	UF_BURN(3); /* UF-LINE:hot-b */
}

UF_NOINLINE void lines_other(void)
{
	UF_BURN(1); /* UF-LINE:other */
}

int main(int argc, char **argv)
{
	struct uf_run run;
	uf_run_init(&run, argc, argv);
	while (uf_run_more(&run)) {
		lines_hot(); /* UF-LINE:call-hot */
		UF_NOTAIL();
		lines_other(); /* UF-LINE:call-other */
		UF_NOTAIL();
	}
	return 0;
}
