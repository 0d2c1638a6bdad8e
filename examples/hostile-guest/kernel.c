/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/hostile-guest/kernel.c — a guest that attacks its profiler: it
 * rewrites its frame pointers, stack pointer and page tables while it is
 * being sampled, so every sample's stack walk meets hostile memory.
 *
 * One round runs each phase below for the same number of spin iterations
 * (interrupts are off, so the guest may point rsp and rbp anywhere while
 * it spins; nothing pushes).  Each phase spins in its own function, so
 * the sampled pc names the phase even when the walk above it fails; rsp
 * is moved next to rbp where the walk should get as far as reading
 * memory there (a walker rejects a frame far above the stack pointer
 * without reading it):
 *
 *   phase_normal      a real chain kmain -> phase_normal -> normal_leaf
 *   phase_self_loop   rbp -> a record whose saved rbp is itself
 *   phase_frame_loop  two records pointing at each other (A -> B -> A)
 *   phase_unmapped    rsp, rbp in a non-present PML4 slot (0x7fff00000000)
 *   phase_mmio        rsp, rbp in the local APIC's MMIO page (0xfee00000)
 *   phase_pt_loop     PML4[1] points to the PML4 itself: rsp, rbp reach a
 *                     self-pointing record through the recursive mapping
 *   phase_pt_flip     rsp, rbp in a 2 MiB page whose PDE the guest toggles
 *                     between present and absent while it spins
 *   phase_top         rsp and rbp in the last 256 bytes below 2^64, with a
 *                     self-pointing record at 0xfffffffffffffff0 (an
 *                     address sum there wraps to 0)
 *
 * A correct profiler finishes, keeps the guest running, never yields a
 * stack deeper than the real one (a handful of frames), and counts the
 * walks that ended early in its summary.  tests/gdb/t-hostile.sh checks
 * that under QEMU.
 *
 * Invariants:
 *  1. uf_rounds counts completed rounds (the test reads it through the
 *     gdbstub to see that the guest still runs after the profiler left).
 *  2. Between phases, rsp and rbp are the guest's real ones again and the
 *     page tables are what setup() made (pd_flip[0] absent); the
 *     mappings setup() adds cover nothing the guest's own code uses.
 */
#include <stdint.h>

#define NOINLINE __attribute__((noinline, noclone))
#define SPIN 400000UL   /* iterations per phase and round */
#define FLIPS 64UL      /* phase_pt_flip: PDE toggles per round */
#define P 0x1ULL
#define W 0x2ULL
#define PCD 0x18ULL     /* cache disabled, write-through: MMIO */
#define PS 0x80ULL

volatile uint64_t uf_rounds;
unsigned long __stack_chk_guard = 0x595e9fbd94fda766ul;
void __stack_chk_fail(void);
void kmain(void);

extern uint64_t pml4[512], pdpt[512], pd[512];   /* boot.S: identity map of 1 GiB */
static uint64_t pd_mmio[512] __attribute__((aligned(4096)));   /* 3-4 GiB */
static uint64_t pd_flip[512] __attribute__((aligned(4096)));   /* 1-2 GiB */
static uint64_t pdpt_top[512] __attribute__((aligned(4096)));  /* PML4[511] */
static uint64_t pd_top[512] __attribute__((aligned(4096)));

#define TOP_PHYS 0x2000000ULL    /* 32 MiB: backs the last 2 MiB of VA */
#define FLIP_PHYS 0x2400000ULL   /* 36 MiB: the page that comes and goes */
#define FLIP_VA 0x40000000ULL
#define LOOP_VA ((1ULL << 39) | (16ULL << 12))   /* via PML4[1] -> PML4 */
#define LOOP_PHYS (16ULL << 21)                 /* what LOOP_VA reaches */

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

static void put64(uint64_t phys, uint64_t v)
{
	*(volatile uint64_t *)(uintptr_t)phys = v;
}

/* Spin `n` times with rbp = fp (and rsp = sp when sp != 0); every `k`
 * iterations XOR *pde with mask (mask 0: no page-table change). */
#define HOSTILE_SPIN(fp, sp, pde, mask, n, k)                                   \
	do {                                                                    \
		unsigned long n_ = (n), k_ = (k);                               \
		uint64_t f_ = (uint64_t)(uintptr_t)(fp), s_ = (uint64_t)(sp);   \
		uint64_t m_ = (uint64_t)(mask), *d_ = (pde);                    \
		__asm__ volatile("mov %%rbp, %%r12\n\t"                         \
				 "mov %%rsp, %%r13\n\t"                         \
				 "mov %[f], %%rbp\n\t"                          \
				 "test %[s], %[s]\n\t"                          \
				 "jz 1f\n\t"                                    \
				 "mov %[s], %%rsp\n"                            \
				 "1:\txor %[m], (%[d])\n\t"                     \
				 "mov %[kk], %%rcx\n"                           \
				 "2:\tdec %%rcx\n\t"                            \
				 "jnz 2b\n\t"                                   \
				 "dec %[nn]\n\t"                                \
				 "jnz 1b\n\t"                                   \
				 "mov %%r13, %%rsp\n\t"                         \
				 "mov %%r12, %%rbp"                             \
				 : [nn] "+r"(n_)                                \
				 : [f] "r"(f_), [s] "r"(s_), [d] "r"(d_), [m] "r"(m_), \
				   [kk] "r"(k_)                                 \
				 : "rcx", "r12", "r13", "memory", "cc");        \
	} while (0)

static uint64_t scratch;   /* the XOR target when a phase changes no entry */

NOINLINE static void normal_leaf(void)
{
	HOSTILE_SPIN(__builtin_frame_address(0), 0, &scratch, 0, 1, SPIN);
}

NOINLINE static void phase_normal(void)
{
	normal_leaf();
}

NOINLINE static void phase_self_loop(void)
{
	volatile uint64_t rec[2];
	rec[0] = (uint64_t)(uintptr_t)rec;
	rec[1] = (uint64_t)(uintptr_t)phase_self_loop + 4;
	HOSTILE_SPIN(rec, 0, &scratch, 0, 1, SPIN);
}

NOINLINE static void phase_frame_loop(void)
{
	volatile uint64_t rec[4];   /* A = rec, B = rec + 2 */
	rec[0] = (uint64_t)(uintptr_t)&rec[2];
	rec[1] = (uint64_t)(uintptr_t)phase_frame_loop + 4;
	rec[2] = (uint64_t)(uintptr_t)&rec[0];
	rec[3] = (uint64_t)(uintptr_t)phase_frame_loop + 8;
	HOSTILE_SPIN(rec, 0, &scratch, 0, 1, SPIN);
}

NOINLINE static void phase_unmapped(void)
{
	HOSTILE_SPIN(0x00007fff00000000ULL, 0x00007fff00000000ULL - 0x100, &scratch, 0, 1, SPIN);
}

NOINLINE static void phase_mmio(void)
{
	HOSTILE_SPIN(0xfee00000ULL, 0xfee00000ULL - 0x100, &scratch, 0, 1, SPIN);
}

NOINLINE static void phase_pt_loop(void)
{
	HOSTILE_SPIN(LOOP_VA + 0x40, LOOP_VA, &scratch, 0, 1, SPIN);
}

NOINLINE static void phase_pt_flip(void)
{
	HOSTILE_SPIN(FLIP_VA + 0x100, FLIP_VA, &pd_flip[0], FLIP_PHYS | PS | P, FLIPS, SPIN / FLIPS);
	pd_flip[0] = 0;   /* invariant 2: left absent */
}

NOINLINE static void phase_top(void)
{
	HOSTILE_SPIN(0xfffffffffffffff0ULL, 0xffffffffffffff00ULL, &scratch, 0, 1, SPIN);
}

/* The extra mappings; records in the memory they reach. */
static void setup(void)
{
	for (uint64_t i = 0; i < 512; i++)
		pd_mmio[i] = ((3ULL << 30) + (i << 21)) | PCD | PS | W | P;
	pdpt[3] = (uint64_t)(uintptr_t)pd_mmio | W | P;
	pdpt[1] = (uint64_t)(uintptr_t)pd_flip | W | P;
	pml4[511] = (uint64_t)(uintptr_t)pdpt_top | W | P;
	pdpt_top[511] = (uint64_t)(uintptr_t)pd_top | W | P;
	pd_top[511] = TOP_PHYS | PS | W | P;
	pml4[1] = (uint64_t)(uintptr_t)pml4 | W | P;   /* the loop */
	/* the last record below 2^64 points at itself */
	put64(TOP_PHYS + 0x1ffff0, 0xfffffffffffffff0ULL);
	put64(TOP_PHYS + 0x1ffff8, (uint64_t)(uintptr_t)phase_top + 4);
	/* the record the recursive mapping reaches points at itself */
	put64(LOOP_PHYS + 0x40, LOOP_VA + 0x40);
	put64(LOOP_PHYS + 0x48, (uint64_t)(uintptr_t)phase_pt_loop + 4);
	/* the flipping page holds a plausible two-frame chain */
	put64(FLIP_PHYS + 0x100, FLIP_VA + 0x200);
	put64(FLIP_PHYS + 0x108, (uint64_t)(uintptr_t)phase_normal + 4);
	put64(FLIP_PHYS + 0x200, 0);
	put64(FLIP_PHYS + 0x208, (uint64_t)(uintptr_t)kmain + 4);
	uint64_t cr3;
	__asm__ volatile("mov %%cr3, %0; mov %0, %%cr3" : "=r"(cr3) : : "memory");
}

NOINLINE void kmain(void)
{
	setup();
	serial_puts("uniprof-flame guest: hostile\n");
	for (;;) {
		phase_normal();
		phase_self_loop();
		phase_frame_loop();
		phase_unmapped();
		phase_mmio();
		phase_pt_loop();
		phase_pt_flip();
		phase_top();
		uf_rounds++;
	}
}
