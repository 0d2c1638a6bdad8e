/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/uklibs/plat/kvm/time.c — "libkvmplat": the platform clock,
 * 3 units. */
#include "../../uklibs.h"

void ukplat_monotonic(void)
{
	UF_BURN(3);
}
