/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/workloads/workloads.h — the thesis workloads, freestanding.
 *
 * Shared by every example: the Linux programs (examples/linux), the QEMU
 * guest kernel and the Xen PV guest kernel.  No libc: only what a bare
 * kernel has.  Each function burns CPU in its own body (no helper call),
 * so the sampled leaf is the function itself, and its share of samples is
 * fixed by the number of work units it runs.  The true shares are stated
 * in app-test-N.truth beside this file, which the tests read.
 *
 * Built the way real projects build (-O2, no frame pointers; profilers
 * unwind them through CFI); the functions are noinline so the call chain
 * main -> function_N survives optimisation, and every call is followed
 * by UF_NOTAIL() so a last call stays a call (GCC -O2 turns it into a
 * jump, which no unwinder can see through: the caller's frame is gone).
 */
#ifndef UF_EXAMPLES_WORKLOADS_H
#define UF_EXAMPLES_WORKLOADS_H

#define UF_NOINLINE __attribute__((noinline, noclone))

/* One unit of work: a fixed number of dependent volatile updates, the same
 * instruction mix in every function so that units cost the same time. */
#ifndef UF_UNIT
#define UF_UNIT 20000UL
#endif

extern volatile unsigned long uf_sink;

/* After a call: keeps it from becoming a tail jump (an empty volatile asm
 * must run after the call returns), at no cost. */
#define UF_NOTAIL() __asm__ volatile("" ::: "memory")

#define UF_BURN(units)                                              \
	do {                                                            \
		for (unsigned long uf_i_ = 0; uf_i_ < (units) * UF_UNIT; uf_i_++) \
			uf_sink = uf_sink * 31u + uf_i_;                        \
	} while (0)

/* app-test-1: main calls function_1, function_2, function_3 with 1 : 3 : 6. */
UF_NOINLINE void function_1(void);
UF_NOINLINE void function_2(void);
UF_NOINLINE void function_3(void);
/* One round of app-test-1: 10 units in all. */
UF_NOINLINE void app_test_1_round(void);

/* app-test-2: function_1 -> function_3, function_2 -> function_4 +
 * function_5; function_3 : function_4 : function_5 = 2 : 2 : 1. */
UF_NOINLINE void t2_function_1(void);
UF_NOINLINE void t2_function_2(void);
UF_NOINLINE void t2_function_3(void);
UF_NOINLINE void t2_function_4(void);
UF_NOINLINE void t2_function_5(void);
UF_NOINLINE void app_test_2_round(void);

#endif
