/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/qemu-guest/kernel.c — the example guest's C side: pick the
 * workload from the kernel command line and run it forever.
 *
 * `-append app-test-2` selects app-test-2, `app-uklibs` the Unikraft-like
 * libraries of examples/uklibs linked into the guest (lib/ukalloc,
 * lib/uksched, plat/kvm, libs/lwip: per-library shares in
 * examples/workloads/uklibs-guest.truth); anything else runs app-test-1
 * (the shares are in examples/workloads/app-test-N.truth); `rounds=N` ends
 * the loop after N rounds through QEMU's isa-debug-exit device
 * (`-device isa-debug-exit,iobase=0xf4,iosize=4`: QEMU exits with status
 * 3) or, without it, halts.  `boot=N`: before its banner the kernel runs
 * boot_selftest(), N units of work (default none), so a profile from the
 * first instruction (launch mode) shows the boot and one attached after
 * the banner does not.  Trade-off: no
 * timer, no interrupts, no allocator: the guest is the workload loop and
 * nothing else, so every sample lands in code with a known share.
 *
 * Invariants:
 *  1. uf_rounds counts completed rounds; the benchmark reads it through
 *     the gdbstub to measure the guest's throughput.
 *  2. Serial output (COM1) happens once, before the loop, and never
 *     inside it, so it cannot skew the shares.
 */
#include <stdint.h>

#include "../workloads/workloads.h"
#include "../uklibs/uklibs.h"

struct multiboot_info {
	uint32_t flags;
	uint32_t mem_lower, mem_upper, boot_device;
	uint32_t cmdline;   /* physical address, valid when flags bit 2 is set */
};

volatile uint64_t uf_rounds;
/* -fstack-protector-all (for frames, see Makefile) with a global guard. */
unsigned long __stack_chk_guard = 0x595e9fbd94fda766ul;

void kmain(const struct multiboot_info *mbi);
void __stack_chk_fail(void);

void __stack_chk_fail(void)
{
	for (;;)
		__asm__ volatile("cli; hlt");
}

static inline void outb(uint16_t port, uint8_t v)
{
	__asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port));
}

static void serial_puts(const char *s)
{
	for (; *s; s++)
		outb(0x3f8, (uint8_t)*s);
}

/* Just past the first w in s, or NULL. */
static const char *find(const char *s, const char *w)
{
	for (; *s; s++) {
		const char *a = s, *b = w;
		while (*a && *b && *a == *b)
			a++, b++;
		if (!*b)
			return a;
	}
	return 0;
}

static unsigned long number(const char *p)
{
	unsigned long v = 0;
	for (int i = 0; p && i < 9 && *p >= '0' && *p <= '9'; i++, p++)
		v = v * 10 + (unsigned long)(*p - '0');
	return v;
}

/* Boot work before the banner: `boot=N` units (10 units = one round). */
UF_NOINLINE void boot_selftest(unsigned long units)
{
	UF_BURN(units);
}

/* isa-debug-exit: QEMU exits with status (1 << 1) | 1 = 3. */
static void guest_exit(void)
{
	serial_puts("uniprof-flame guest: done\n");
	__asm__ volatile("outl %0, %1" : : "a"(1u), "Nd"((uint16_t)0xf4));
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* app-uklibs: examples/uklibs/app's round (20 units: 4 here, the rest in
 * the libraries' own files), the guest kernel being the app. */
UF_NOINLINE void uklibs_round(void)
{
	UF_BURN(4);
	uk_malloc(6);
	UF_NOTAIL();
	uk_sched_yield();
	UF_NOTAIL();
	tcp_input();
	UF_NOTAIL();
}

UF_NOINLINE void kmain(const struct multiboot_info *mbi)
{
	const char *cmd = (mbi->flags & 4) ? (const char *)(uintptr_t)mbi->cmdline : "";
	int two = find(cmd, "app-test-2") != 0, uk = find(cmd, "app-uklibs") != 0;
	unsigned long rounds = number(find(cmd, "rounds="));
	boot_selftest(number(find(cmd, "boot=")));
	serial_puts(two ? "uniprof-flame guest: app-test-2\n" : uk ? "uniprof-flame guest: app-uklibs\n"
								: "uniprof-flame guest: app-test-1\n");
	for (;;) {
		if (two)
			app_test_2_round();
		else if (uk)
			uklibs_round();
		else
			app_test_1_round();
		if (++uf_rounds == rounds)
			guest_exit();
	}
}
