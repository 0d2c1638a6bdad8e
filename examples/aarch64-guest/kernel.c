/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/aarch64-guest/kernel.c — the AArch64 example guest's C side:
 * read the command line from the device tree, start the other vCPUs,
 * run a workload forever (or for `rounds=N` rounds, then power off).
 *
 * Command line (`-append`): `app-test-2` runs app-test-2 on every vCPU,
 * `mixed` runs app-test-1 on even and app-test-2 on odd vCPUs (so a
 * per-vCPU profile can tell whose registers were read), anything else
 * app-test-1; `rounds=N` ends vCPU 0's loop after N rounds with PSCI
 * SYSTEM_OFF (QEMU exits with status 0).  Shares: examples/workloads.
 * `boot=N`: before its banner, vCPU 0 runs boot_selftest(), N units of
 * work (default none), so that a profile from the first instruction
 * (launch mode) shows the boot, and one attached after the banner does not.
 * `phases` (issue 30's run-state truth, vCPU 0 only): cycles of phase_a
 * (computes 0.5 s), phase_wait (0.5 s halted in `wfi`, woken by the
 * virtual timer at its end) and phase_b (computes 0.5 s), timed by the
 * generic timer's virtual counter; with rounds=N, after N cycles it
 * prints "truth PHASE cnt TICKS freq HZ" per phase (the counter ticks each
 * phase took: QEMU derives the counter from the host clock) and powers off.
 *
 * Trade-off: no interrupt is ever taken (no vectors, no allocator, no MMU:
 * boot.S): the guest is the workload and nothing else, so every sample
 * lands in code with a known share.  `phases` only lets the timer's
 * interrupt reach the CPU through the GIC so that `wfi` wakes up; it stays
 * masked (PSTATE.I), and the timer is disabled again after the wait.  The
 * command line is found by searching the device tree blob (bounded by its
 * header's size) instead of parsing it.
 *
 * Invariants:
 *  1. uf_rounds counts vCPU 0's completed rounds (read through the
 *     gdbstub by the tests to see that the guest runs).
 *  2. Serial output (PL011) happens before the loops only.
 *  3. Every vCPU runs on its own stack (boot.S); vCPUs share no data
 *     but the workloads' volatile sink.
 */
#include <stdint.h>

#include "../workloads/workloads.h"

#define UF_MAX_CPUS 4                        /* boot.S reserves this many stacks */
#define DTB_BASE 0x40000000ul                /* virt: RAM base, the DTB for ELF kernels */
#define DTB_MAX (2ul << 20)                  /* below the image (link.ld) */
#define UART0_DR ((volatile uint32_t *)0x09000000ul)
#define PSCI_CPU_ON 0xc4000003ul
#define PSCI_SYSTEM_OFF 0x84000008ul
/* virt's GICv2 (QEMU's default): distributor and CPU interface */
#define GICD ((volatile uint32_t *)0x08000000ul)
#define GICC ((volatile uint32_t *)0x08010000ul)
#define VTIMER_PPI 27                        /* the EL1 virtual timer's interrupt */

volatile uint64_t uf_rounds;
/* -fstack-protector-all (frames for every function, see Makefile). */
unsigned long __stack_chk_guard = 0x595e9fbd94fda766ul;
static volatile int mixed;

void kmain(void);
void secondary_main(unsigned long cpu);
void secondary_entry(void);
void __stack_chk_fail(void);

void __stack_chk_fail(void)
{
	for (;;)
		__asm__ volatile("wfi");
}

/* PSCI through HVC: QEMU's virt machine without EL2/EL3 firmware. */
static long psci(unsigned long fn, unsigned long a1, unsigned long a2, unsigned long a3)
{
	register unsigned long x0 __asm__("x0") = fn;
	register unsigned long x1 __asm__("x1") = a1;
	register unsigned long x2 __asm__("x2") = a2;
	register unsigned long x3 __asm__("x3") = a3;
	__asm__ volatile("hvc #0" : "+r"(x0) : "r"(x1), "r"(x2), "r"(x3) : "memory");
	return (long)x0;
}

static void serial_puts(const char *s)
{
	for (; *s; s++)
		*UART0_DR = (uint32_t)(unsigned char)*s;
}

static uint32_t be32(const volatile unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The device tree blob, or an empty one: [*base, *base + *len). */
static void dtb(const volatile unsigned char **base, unsigned long *len)
{
	const volatile unsigned char *p = (const volatile unsigned char *)DTB_BASE;
	unsigned long n = be32(p + 4);
	*base = p;
	*len = be32(p) == 0xd00dfeedu && n <= DTB_MAX ? n : 0;
}

/* Where w occurs in the device tree (the command line is in it), or 0. */
static const volatile unsigned char *find(const char *w)
{
	const volatile unsigned char *p;
	unsigned long n;
	dtb(&p, &n);
	for (unsigned long i = 0; i < n; i++) {
		unsigned long k = 0;
		while (w[k] && i + k < n && p[i + k] == (unsigned char)w[k])
			k++;
		if (!w[k])
			return p + i + k;
	}
	return 0;
}

static unsigned long number(const volatile unsigned char *p)
{
	unsigned long v = 0;
	for (int i = 0; p && i < 9 && *p >= '0' && *p <= '9'; i++, p++)
		v = v * 10 + (*p - '0');
	return v;
}

/* Boot work before the banner: `boot=N` units (10 units = one round). */
UF_NOINLINE void boot_selftest(unsigned long units)
{
	UF_BURN(units);
}

/* ---- phases ------------------------------------------------------- */

static uint64_t counter(void)
{
	uint64_t v;
	__asm__ volatile("isb; mrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}

static uint64_t counter_hz(void)
{
	uint64_t v;
	__asm__ volatile("mrs %0, cntfrq_el0" : "=r"(v));
	return v;
}

/* The virtual timer's interrupt, enabled in the GIC so that it wakes a
 * `wfi` (an interrupt masked by PSTATE.I still does); never taken. */
static void gic_enable_vtimer(void)
{
	GICD[0] = 1;                                  /* GICD_CTLR: forward */
	GICD[0x100 / 4] = 1u << VTIMER_PPI;           /* GICD_ISENABLER0 */
	GICD[(0x400 + VTIMER_PPI) / 4] = 0x80u << 8 * (VTIMER_PPI % 4);  /* priority */
	GICC[1] = 0xff;                               /* GICC_PMR: let all through */
	GICC[0] = 1;                                  /* GICC_CTLR: signal to the CPU */
}

UF_NOINLINE void phase_a(uint64_t end);
UF_NOINLINE void phase_a(uint64_t end)
{
	while (counter() < end)
		UF_BURN(1);
	UF_NOTAIL();
}

UF_NOINLINE void phase_b(uint64_t end);
UF_NOINLINE void phase_b(uint64_t end)
{
	while (counter() < end)
		UF_BURN(1);
	UF_NOTAIL();
}

/* Halted in `wfi` until the counter reaches end: the virtual timer fires
 * there (its compare value), its level interrupt wakes the vCPU, and
 * disabling the timer afterwards drops it.  A spurious wake-up halts
 * again: one wfi per wait. */
UF_NOINLINE void phase_wait(uint64_t end);
UF_NOINLINE void phase_wait(uint64_t end)
{
	__asm__ volatile("msr cntv_cval_el0, %0; msr cntv_ctl_el0, %1; isb"
			 :: "r"(end), "r"(1ul) : "memory");       /* enabled, unmasked */
	while (counter() < end)
		__asm__ volatile("wfi" ::: "memory");
	__asm__ volatile("msr cntv_ctl_el0, %0; isb" :: "r"(0ul) : "memory");
	UF_NOTAIL();
}

static void put_number(uint64_t v)
{
	char buf[24], *p = buf + sizeof buf - 1;
	*p = 0;
	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10) && p > buf);
	serial_puts(p);
}

UF_NOINLINE void run_phases(unsigned long rounds);
UF_NOINLINE void run_phases(unsigned long rounds)
{
	static const char *const names[3] = { "phase_a", "phase_wait", "phase_b" };
	void (*const fn[3])(uint64_t) = { phase_a, phase_wait, phase_b };
	uint64_t took[3] = { 0 }, half = counter_hz() / 2;
	gic_enable_vtimer();
	for (unsigned long r = 0; !rounds || r < rounds; r++)
		for (int i = 0; i < 3; i++) {
			uint64_t c0 = counter();
			fn[i](c0 + half);
			took[i] += counter() - c0;
		}
	for (int i = 0; i < 3; i++) {
		serial_puts("truth ");
		serial_puts(names[i]);
		serial_puts(" cnt ");
		put_number(took[i]);
		serial_puts(" freq ");
		put_number(counter_hz());
		serial_puts("\n");
	}
}

static void run(int two)
{
	if (two)
		app_test_2_round();
	else
		app_test_1_round();
}

UF_NOINLINE void secondary_main(unsigned long cpu)
{
	int two = mixed ? (int)(cpu & 1) : find("app-test-2") != 0;
	for (;;)
		run(two);
}

UF_NOINLINE void kmain(void)
{
	int two = find("app-test-2") != 0;
	unsigned long rounds = number(find("rounds="));
	mixed = find("mixed") != 0;
	boot_selftest(number(find("boot=")));
	for (unsigned long cpu = 1; cpu < UF_MAX_CPUS; cpu++)   /* absent ones just fail */
		psci(PSCI_CPU_ON, cpu, (unsigned long)secondary_entry, cpu);
	if (find("phases")) {
		serial_puts("uniprof-flame guest: phases\n");
		run_phases(rounds);
		serial_puts("uniprof-flame guest: done\n");
		psci(PSCI_SYSTEM_OFF, 0, 0, 0);
	}
	serial_puts(mixed ? "uniprof-flame guest: mixed\n"
		    : two ? "uniprof-flame guest: app-test-2\n" : "uniprof-flame guest: app-test-1\n");
	for (;;) {
		run(two);
		if (++uf_rounds == rounds) {
			serial_puts("uniprof-flame guest: done\n");
			psci(PSCI_SYSTEM_OFF, 0, 0, 0);
		}
	}
}
