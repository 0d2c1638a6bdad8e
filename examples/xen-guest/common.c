/*
 * examples/xen-guest/common.c — command line and workload loop of the
 * test guest, shared by the PV (guest.c) and PVH (pvh.c) entries.
 *
 * Also the stack-protector hooks: -fstack-protector-all is how the guest
 * gets a frame in every function (see the Makefile), with its canary in
 * __stack_chk_guard (-mstack-protector-guard=global: no TLS here).
 * Invariant: run() is the root of every sampled stack below the entry.
 */
#include "common.h"

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

UF_NOINLINE void run(int app, unsigned long rounds)
{
	for (unsigned long i = 0; !rounds || i < rounds; i++) {
		if (app == 2)
			app_test_2_round();
		else
			app_test_1_round();
	}
}
