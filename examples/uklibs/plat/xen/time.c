/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/uklibs/plat/xen/time.c — "libxenplat": the platform clock of
 * the Xen guest (examples/xen-guest), 3 units, as plat/kvm/time.c is the
 * QEMU guest's. */
#include "../../uklibs.h"

void ukplat_monotonic(void)
{
	UF_BURN(3);
}
