/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/uklibs/lib/ukalloc/alloc.c — "libukalloc": the allocator's
 * work, `units` per call (see uklibs.h). */
#include "../../uklibs.h"

void uk_malloc(unsigned long units)
{
	UF_BURN(units);
}
