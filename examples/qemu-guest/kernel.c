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
 * `app-phases` is the exception (issue 30's run-state truth): it sets up
 * the PIC and the PIT at 1 kHz with one IDT gate, then cycles through
 * phase_a (computes for 500 ticks), phase_wait (`hlt` until 500 ticks
 * have passed: the vCPU is halted, a sampler must call it blocked) and
 * phase_b (computes for 500 ticks).  With rounds=N it ends after N
 * cycles and prints the truth first, counted in ticks by the guest
 * itself: "truth phase_a ticks T tsc C", ... (tests/gdb/t-qemu-states.sh):
 * ticks by the timer, C by the time-stamp counter, which QEMU derives
 * from the host clock, so C is the phase's share of real time even
 * where the emulated timer lags.
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

/* ---- app-phases: a timer, and phases that compute or halt ------------ */

struct idt_gate {
	uint16_t off_lo, sel;
	uint8_t ist, type;
	uint16_t off_mid;
	uint32_t off_hi, zero;
} __attribute__((packed));

static struct idt_gate idt[256];
static volatile uint64_t ticks;
static uint64_t phase_ticks[3], phase_tsc[3];

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

struct interrupt_frame;

/* PIT channel 0 through the master PIC's IRQ0 (vector 0x20); also serves
 * the IRQ7 spurious vector, which must not be acknowledged. */
__attribute__((interrupt)) void timer_isr(struct interrupt_frame *f)
{
	(void)f;
	ticks++;
	outb(0x20, 0x20);
}

__attribute__((interrupt)) void spurious_isr(struct interrupt_frame *f)
{
	(void)f;
}

static void idt_set(int vec, void (*fn)(struct interrupt_frame *))
{
	uint64_t a = (uint64_t)(uintptr_t)fn;
	idt[vec] = (struct idt_gate){ .off_lo = (uint16_t)a, .sel = 0x08, .type = 0x8e,
				      .off_mid = (uint16_t)(a >> 16), .off_hi = (uint32_t)(a >> 32) };
}

/* PIC remapped to 0x20-0x2f with only IRQ0 open; PIT at 1 kHz; sti. */
static void timer_start(void)
{
	static const uint8_t pic[][2] = {
		{ 0x20, 0x11 }, { 0xa0, 0x11 }, { 0x21, 0x20 }, { 0xa1, 0x28 },
		{ 0x21, 0x04 }, { 0xa1, 0x02 }, { 0x21, 0x01 }, { 0xa1, 0x01 },
		{ 0x21, 0xfe }, { 0xa1, 0xff },
	};
	struct {
		uint16_t limit;
		uint64_t base;
	} __attribute__((packed)) idtr = { sizeof idt - 1, (uint64_t)(uintptr_t)idt };
	idt_set(0x20, timer_isr);
	idt_set(0x27, spurious_isr);
	__asm__ volatile("lidt %0" : : "m"(idtr));
	for (unsigned i = 0; i < sizeof pic / sizeof pic[0]; i++)
		outb(pic[i][0], pic[i][1]);
	const uint16_t div = 1193;   /* 1193182 Hz / 1193 = 1000.2 Hz */
	outb(0x43, 0x34);
	outb(0x40, (uint8_t)div);
	outb(0x40, (uint8_t)(div >> 8));
	__asm__ volatile("sti");
}

UF_NOINLINE void phase_a(uint64_t until)
{
	while (ticks < until)
		UF_BURN(1);
	UF_NOTAIL();
}

UF_NOINLINE void phase_b(uint64_t until)
{
	while (ticks < until)
		UF_BURN(1);
	UF_NOTAIL();
}

/* Halted until the timer has ticked past `until`. */
UF_NOINLINE void phase_wait(uint64_t until)
{
	while (ticks < until)
		__asm__ volatile("hlt");
	UF_NOTAIL();
}

/* One cycle: 500 ticks of each phase, counted as they really passed. */
UF_NOINLINE void phases_round(void)
{
	void (*const fn[3])(uint64_t) = { phase_a, phase_wait, phase_b };
	for (int i = 0; i < 3; i++) {
		uint64_t t0 = ticks, c0 = rdtsc();
		fn[i](t0 + 500);
		phase_ticks[i] += ticks - t0;
		phase_tsc[i] += rdtsc() - c0;
	}
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

static void phases_truth(void)
{
	static const char *const names[3] = { "phase_a", "phase_wait", "phase_b" };
	for (int i = 0; i < 3; i++) {
		serial_puts("truth ");
		serial_puts(names[i]);
		serial_puts(" ticks ");
		put_number(phase_ticks[i]);
		serial_puts(" tsc ");
		put_number(phase_tsc[i]);
		serial_puts("\n");
	}
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
	int ph = find(cmd, "app-phases") != 0;
	unsigned long rounds = number(find(cmd, "rounds="));
	boot_selftest(number(find(cmd, "boot=")));
	serial_puts(two ? "uniprof-flame guest: app-test-2\n" : uk ? "uniprof-flame guest: app-uklibs\n"
		    : ph ? "uniprof-flame guest: app-phases\n" : "uniprof-flame guest: app-test-1\n");
	if (ph)
		timer_start();
	for (;;) {
		if (ph)
			phases_round();
		else if (two)
			app_test_2_round();
		else if (uk)
			uklibs_round();
		else
			app_test_1_round();
		if (++uf_rounds == rounds) {
			if (ph)
				phases_truth();
			guest_exit();
		}
	}
}
