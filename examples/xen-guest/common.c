/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/common.c — command line and workload loop of the
 * test guest, shared by the PV (guest.c) and PVH (pvh.c) entries.
 *
 * Also the stack-protector hooks: -fstack-protector-all is how the guest
 * gets a frame in every function (see the Makefile), with its canary in
 * __stack_chk_guard (-mstack-protector-guard=global: no TLS here).
 * Invariant: run() is the root of every sampled stack below the entry.
 *
 * app-uklibs runs examples/uklibs/app's round (20 units: 4 here, the rest
 * in the libraries' own files, linked from their Unikraft-like tree
 * paths; true shares in examples/workloads/uklibs-xen.truth), the guest
 * being the app.
 */
#include "common.h"
#include "../uklibs/uklibs.h"

const char *uf_cmdline = "";
unsigned long __stack_chk_guard = 0x5f75662d78656e5fUL;

void __stack_chk_fail(void);
void __stack_chk_fail(void)
{
	for (;;)
		;
}

const char *arg(const char *word)
{
	const char *c = uf_cmdline;
	unsigned n = 0;
	while (word[n])
		n++;
	for (unsigned i = 0; c && i < UF_CMDLINE_MAX && c[i]; i++) {
		if (i && c[i - 1] != ' ')
			continue;
		unsigned k = 0;
		while (k < n && i + k < UF_CMDLINE_MAX && c[i + k] == word[k])
			k++;
		if (k == n && (word[n - 1] == '=' || c[i + k] == ' ' || c[i + k] == 0))
			return c + i + k;
	}
	return 0;
}

unsigned long num(const char *s)
{
	unsigned long v = 0;
	while (s && *s >= '0' && *s <= '9')
		v = v * 10 + (unsigned long)(*s++ - '0');
	return v;
}

int app_arg(void)
{
	return arg("app-uklibs") ? 3 : arg("app-test-2") ? 2 : 1;
}

const char *app_name(int app)
{
	return app == 3 ? "app-uklibs" : app == 2 ? "app-test-2" : "app-test-1";
}

static UF_NOINLINE void uklibs_round(void)
{
	UF_BURN(4);
	uk_malloc(6);
	UF_NOTAIL();
	uk_sched_yield();
	UF_NOTAIL();
	tcp_input();
	UF_NOTAIL();
}

UF_NOINLINE void run(int app, unsigned long rounds)
{
	for (unsigned long i = 0; !rounds || i < rounds; i++) {
		if (app == 3)
			uklibs_round();
		else if (app == 2)
			app_test_2_round();
		else
			app_test_1_round();
	}
}
