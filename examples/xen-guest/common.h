/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/common.h — what the PV and PVH entries of the test
 * guest share: the command line and the workload loop (common.c).
 */
#ifndef UF_XEN_GUEST_COMMON_H
#define UF_XEN_GUEST_COMMON_H

#include "../workloads/workloads.h"

#define UF_CMDLINE_MAX 1024

/* The command line, set by the entry code before anything else. */
extern const char *uf_cmdline;

/* Is `word` a space-separated word of the command line?  With a trailing
 * '=', returns a pointer to its value instead; NULL when absent. */
const char *arg(const char *word);
/* Decimal prefix of s (0 for NULL). */
unsigned long num(const char *s);
/* The workload the command line names: 1 (app-test-1, the default), 2
 * (app-test-2) or 3 (app-uklibs: examples/uklibs' libraries). */
int app_arg(void);
/* Its name, as the command line spells it. */
const char *app_name(int app);
/* Run workload `app` (app_arg()) for `rounds` rounds, forever when 0. */
UF_NOINLINE void run(int app, unsigned long rounds);

#endif
