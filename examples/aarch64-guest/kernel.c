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
 *
 * Trade-off: no timer, no interrupts, no allocator, no MMU (boot.S): the
 * guest is the workload and nothing else, so every sample lands in code
 * with a known share.  The command line is found by searching the device
 * tree blob (bounded by its header's size) instead of parsing it.
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
