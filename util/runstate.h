/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/runstate.h — what a thread or vCPU was doing when it was sampled:
 * on a CPU, or waiting (and for what).  The one vocabulary shared by the
 * backends (which observe it), the sampler (which records it per sample),
 * the fold model (which keeps it per sample), the readers of imported
 * profiles, the exports and the viewer.  It lives at the ground because
 * all of them need it and none of them owns it.
 *
 * The states follow Xen's runstates, the most precise source we have:
 *   running   on a physical CPU at the stop (Linux: R and it had run since
 *             the last sample; QEMU: not halted)
 *   runnable  ready but not run: Xen steal time, a Linux thread in R that
 *             was not given a CPU since the last sample
 *   blocked   waiting for an event: Xen blocked (SCHEDOP_block, an idle
 *             vCPU), a Linux thread in S or D, a QEMU vCPU stopped right
 *             after its hlt (x86) or wfi (AArch64)
 *   offline   a vCPU that is down (Xen offline/paused, a Linux thread in T)
 *   unknown   nobody said (old raw traces, folded input, perf script
 *             without sched events)
 * "waiting" is the group runnable + blocked: what a wait profile shows.
 *
 * Invariant: the numeric values are part of the raw trace format and the
 * embedded block; append new states, never renumber.
 */
#ifndef UF_UTIL_RUNSTATE_H
#define UF_UTIL_RUNSTATE_H

#include <string.h>

enum uf_runstate {
	UF_RS_UNKNOWN = 0,
	UF_RS_RUNNING = 1,
	UF_RS_RUNNABLE = 2,
	UF_RS_BLOCKED = 3,
	UF_RS_OFFLINE = 4,
	UF_RS_COUNT
};

/* Bit sets of states, for --state and the viewer's filters. */
#define UF_RS_BIT(s)      (1u << (s))
#define UF_RS_SET_ONCPU   UF_RS_BIT(UF_RS_RUNNING)
#define UF_RS_SET_WAITING (UF_RS_BIT(UF_RS_RUNNABLE) | UF_RS_BIT(UF_RS_BLOCKED))
#define UF_RS_SET_ALL     ((1u << UF_RS_COUNT) - 1u)

static inline const char *uf_runstate_name(enum uf_runstate s)
{
	static const char *const names[UF_RS_COUNT] = {
		"unknown", "running", "runnable", "blocked", "offline",
	};
	return (unsigned)s < UF_RS_COUNT ? names[s] : "unknown";
}

/* A state name or a group name ("waiting", "on-cpu", "all") as a bit set;
 * 0 when the word is none of them. */
static inline unsigned uf_runstate_set_parse(const char *word)
{
	if (!strcmp(word, "waiting"))
		return UF_RS_SET_WAITING;
	if (!strcmp(word, "on-cpu"))
		return UF_RS_SET_ONCPU;
	if (!strcmp(word, "all"))
		return UF_RS_SET_ALL;
	for (unsigned s = 0; s < UF_RS_COUNT; s++)
		if (!strcmp(word, uf_runstate_name((enum uf_runstate)s)))
			return UF_RS_BIT(s);
	return 0;
}

#endif
