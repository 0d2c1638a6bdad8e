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
 * everything else here is hand formatting into a stack buffer plus
 * write(2) (no snprintf: see struct line).
 * Runs on an alternate stack, so a stack overflow is reported too.
 */
#ifndef _GNU_SOURCE   /* xen-drive's build defines it on the command line */
#define _GNU_SOURCE
#endif
#include <asm/prctl.h>
#include <execinfo.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

/* The report is formatted by hand, not by snprintf: a crash that
 * leaves the thread pointer (%fs) bad would fault again at snprintf's
 * first thread-local access, inside this handler, and the kernel would
 * then kill the process with no report at all (a bare "Segmentation
 * fault" was seen twice, in the SMP cases).  Nothing below touches
 * thread-local storage before the first line is out. */
struct line {
	char b[192];
	size_t n;
};

static void put_str(struct line *l, const char *s)
{
	while (*s && l->n < sizeof l->b)
		l->b[l->n++] = *s++;
}

static void put_num(struct line *l, unsigned long long v, unsigned base)
{
	char d[24];
	int k = 0;
	do {
		d[k++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v && k < (int)sizeof d);
	if (base == 16)
		put_str(l, "0x");
	while (k > 0 && l->n < sizeof l->b)
		l->b[l->n++] = d[--k];
}

static void put_out(const struct line *l)
{
	(void)!write(2, l->b, l->n);
}

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
	const ucontext_t *uc = ucv;
	const greg_t *g = uc->uc_mcontext.gregs;
	struct line l = { .n = 0 };
	put_str(&l, "@@SEGV sig=");
	put_num(&l, (unsigned long long)sig, 10);
	put_str(&l, " addr=");
	put_num(&l, (unsigned long long)(uintptr_t)si->si_addr, 16);
	put_str(&l, " tid=");
	put_num(&l, (unsigned long long)syscall(SYS_gettid), 10);
	put_str(&l, " pid=");
	put_num(&l, (unsigned long long)getpid(), 10);
	const struct { const char *name; int reg; } regs[] = {
		{ " rip=", REG_RIP }, { " rsp=", REG_RSP }, { " rbp=", REG_RBP }, { " rdi=", REG_RDI },
	};
	for (size_t i = 0; i < sizeof regs / sizeof regs[0]; i++) {
		put_str(&l, regs[i].name);
		put_num(&l, (unsigned long long)g[regs[i].reg], 16);
	}
	unsigned long fs = 0; /* the thread pointer: 0 or junk says why a report could not be made */
	(void)syscall(SYS_arch_prctl, ARCH_GET_FS, &fs);
	put_str(&l, " fs=");
	put_num(&l, fs, 16);
	put_str(&l, "\n@@BT ");
	put_num(&l, (unsigned long long)g[REG_RIP], 16);
	put_str(&l, "\n");
	put_out(&l);
	void *bt[48];
	int n = backtrace(bt, 48);
	for (int i = 0; i < n; i++) {
		l.n = 0;
		put_str(&l, "@@BT ");
		put_num(&l, (unsigned long long)(uintptr_t)bt[i], 16);
		put_str(&l, "\n");
		put_out(&l);
	}
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
