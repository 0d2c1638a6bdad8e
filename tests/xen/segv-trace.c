/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/xen/segv-trace.c — test-only crash reporter linked into the copy
 * of uniprof-flame that the Xen test runs in dom0 (never into a release
 * binary).  A crash there happens far from a debugger (a PV dom0 under
 * QEMU TCG, rarely, once in several boots), so the fault itself is
 * written to stderr — the case's log on the host's 9p share — as
 * "@@SEGV sig=N addr=... tid=... rip=..." plus the return addresses of a
 * backtrace ("@@BT 0x..."), which t-xen.sh resolves with addr2line
 * against this (static, non-PIE) binary.  Then the signal's default
 * action runs: the exit status stays 128 + signal.
 *
 * Trade-off: backtrace() is not async-signal-safe in general; it is
 * primed in the constructor (no lazy initialisation in the handler) and
 * everything else here is snprintf into a stack buffer plus write(2).
 * Runs on an alternate stack, so a stack overflow is reported too.
 */
#ifndef _GNU_SOURCE   /* xen-drive's build defines it on the command line */
#define _GNU_SOURCE
#endif
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

static void say(const char *fmt, unsigned long long a, unsigned long long b)
{
	char buf[160];
	int n = snprintf(buf, sizeof buf, fmt, a, b);
	if (n > 0)
		(void)!write(2, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	const ucontext_t *uc = ucv;
	const greg_t *g = uc->uc_mcontext.gregs;
	say("@@SEGV sig=%llu addr=0x%llx", (unsigned long long)sig,
	    (unsigned long long)(uintptr_t)si->si_addr);
	say(" tid=%llu pid=%llu", (unsigned long long)syscall(SYS_gettid),
	    (unsigned long long)getpid());
	say(" rip=0x%llx rsp=0x%llx", (unsigned long long)g[REG_RIP], (unsigned long long)g[REG_RSP]);
	say(" rbp=0x%llx rdi=0x%llx\n", (unsigned long long)g[REG_RBP], (unsigned long long)g[REG_RDI]);
	say("@@BT 0x%llx\n", (unsigned long long)g[REG_RIP], 0);
	void *bt[48];
	int n = backtrace(bt, 48);
	for (int i = 0; i < n; i++)
		say("@@BT 0x%llx\n", (unsigned long long)(uintptr_t)bt[i], 0);
	signal(sig, SIG_DFL);
	raise(sig);
}

__attribute__((constructor)) static void segv_trace_init(void)
{
	static char alt[64 * 1024];
	stack_t ss = { .ss_sp = alt, .ss_size = sizeof alt };
	void *prime[2];
	struct sigaction sa;
	backtrace(prime, 2);
	sigaltstack(&ss, NULL);
	memset(&sa, 0, sizeof sa);
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
}
