/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/pvh.c — the PVH variant of the test guest: same
 * command line and workloads as the PV one (guest.c), entered through
 * pvh-head.S.  Output goes to Xen's debug port 0xe9 (shown as "(dN)" lines
 * on the Xen console); the hypercall page is installed through the MSR
 * that Xen's CPUID leaf 0x40000002 names, for the final poweroff.
 *
 * Trade-off: one vCPU only; no console ring (PVH has no PV start_info).
 * Invariant: everything runs identity-mapped (virtual == physical).
 */
#include <stdint.h>
#define __XEN_INTERFACE_VERSION__ 0x00040d00
#include <xen/xen.h>
#include <xen/sched.h>
#include <xen/arch-x86/hvm/start_info.h>

#include "common.h"

extern char hypercall_page[];

static void out(const char *s)
{
	for (; *s; s++)
		asm volatile("outb %0, $0xe9" : : "a"(*s));
}

static void cpuid(uint32_t leaf, uint32_t r[4])
{
	asm volatile("cpuid" : "=a"(r[0]), "=b"(r[1]), "=c"(r[2]), "=d"(r[3]) : "a"(leaf), "c"(0));
}

/* Fill hypercall_page through Xen's MSR; 0 on success. */
static int hypercall_init(void)
{
	uint32_t r[4];
	cpuid(0x40000000, r);
	if (r[1] != 0x566e6558 || r[0] < 0x40000002)  /* "XenV" */
		return -1;
	cpuid(0x40000002, r);
	uint64_t pa = (uint64_t)(uintptr_t)hypercall_page;
	asm volatile("wrmsr" : : "c"(r[1]), "a"((uint32_t)pa), "d"((uint32_t)(pa >> 32)));
	return 0;
}

static void poweroff(void)
{
	struct sched_shutdown sd = { .reason = SHUTDOWN_poweroff };
	register unsigned long rdi asm("rdi") = SCHEDOP_shutdown;
	register unsigned long rsi asm("rsi") = (unsigned long)&sd;
	long ret;
	asm volatile("call *%[entry]"
		     : "=a"(ret), "+r"(rdi), "+r"(rsi)
		     : [entry] "r"(hypercall_page + __HYPERVISOR_sched_op * 32)
		     : "rcx", "r11", "memory");
}

void pvh_main(uint32_t start_info_pa);
void pvh_main(uint32_t start_info_pa)
{
	const struct hvm_start_info *si = (const void *)(uintptr_t)start_info_pa;
	if (si && si->magic == XEN_HVM_START_MAGIC_VALUE && si->cmdline_paddr)
		uf_cmdline = (const char *)(uintptr_t)si->cmdline_paddr;
	int app = app_arg();
	out("uf-xen-guest-pvh: running ");
	out(app_name(app));
	out("\n");
	run(app, num(arg("rounds=")));
	out("uf-xen-guest-pvh: done, powering off\n");
	if (hypercall_init() == 0)
		poweroff();
	for (;;)
		asm volatile("hlt");
}
