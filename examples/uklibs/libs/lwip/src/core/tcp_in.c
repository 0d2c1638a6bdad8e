/* SPDX-License-Identifier: BSD-3-Clause */
/* examples/uklibs/libs/lwip/src/core/tcp_in.c — "liblwip" (an external
 * library): 3 units of its own, then 2 units of allocation. */
#include "../../../../uklibs.h"

void tcp_input(void)
{
	UF_BURN(3);
	uk_malloc(2);
	UF_NOTAIL();
}
