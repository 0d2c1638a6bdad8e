/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/uklibs/lib/uksched/sched.c — "libuksched": 2 units of its
 * own, then the platform clock (3 units in libkvmplat). */
#include "../../uklibs.h"

void uk_sched_yield(void)
{
	UF_BURN(2);
	ukplat_monotonic();
	UF_NOTAIL();
}
