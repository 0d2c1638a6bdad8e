/*
 * examples/qemu-guest/kernel.c — the example guest's C side: pick the
 * workload from the kernel command line and run it forever.
 *
 * `-append app-test-2` selects app-test-2; anything else runs app-test-1
 * (the shares are in examples/workloads/app-test-N.truth).  Trade-off: no
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

static int contains(const char *s, const char *w)
{
	for (; *s; s++) {
		const char *a = s, *b = w;
		while (*a && *b && *a == *b)
			a++, b++;
		if (!*b)
			return 1;
	}
	return 0;
}

UF_NOINLINE void kmain(const struct multiboot_info *mbi)
{
	const char *cmd = (mbi->flags & 4) ? (const char *)(uintptr_t)mbi->cmdline : "";
	int two = contains(cmd, "app-test-2");
	serial_puts(two ? "uniprof-flame guest: app-test-2\n" : "uniprof-flame guest: app-test-1\n");
	for (;;) {
		if (two)
			app_test_2_round();
		else
			app_test_1_round();
		uf_rounds++;
	}
}
