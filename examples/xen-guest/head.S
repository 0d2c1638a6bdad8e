/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/head.S — entry points, Xen ELF notes, hypercall page
 * and stacks of the minimal 64-bit PV test guest (see guest.c).
 *
 * Xen's PV loader reads the notes below (the guest is linked at virtual 0
 * with no physical offset, so the boot area is mapped 1:1 from 0) and
 * enters _start on vCPU 0 with %rsi = start_info and a bootstrap stack.
 * Invariant: every entry clears %rbp before its first call, so a
 * frame-pointer walk of any vCPU ends at its entry point.
 */
#include "notes.h"

	xen_note XEN_ELFNOTE_GUEST_OS, str, "uf-xen-guest"
	xen_note XEN_ELFNOTE_GUEST_VERSION, str, "1"
	xen_note XEN_ELFNOTE_XEN_VERSION, str, "xen-3.0"
	xen_note XEN_ELFNOTE_LOADER, str, "generic"
	xen_note XEN_ELFNOTE_VIRT_BASE, .quad, 0
	xen_note XEN_ELFNOTE_PADDR_OFFSET, .quad, 0
	xen_note XEN_ELFNOTE_ENTRY, .quad, _start
	xen_note XEN_ELFNOTE_HYPERCALL_PAGE, .quad, hypercall_page

	.section .text.entry, "ax"
	.globl _start
_start:				/* vCPU 0 */
	lea	stack0_top(%rip), %rsp
	xor	%ebp, %ebp
	mov	%rsi, %rdi
	call	guest_main
	ud2

	.globl secondary_start
secondary_start:		/* vCPU 1..: rsp set by VCPUOP_initialise */
	xor	%ebp, %ebp
	call	secondary_main
	ud2

/* The event-channel upcall (guest.c, `upcall`), as Mini-OS and Unikraft's
 * Xen platform enter it.  Xen left, from rsp up: rcx, r11, then the
 * interrupted rip, cs, rflags, rsp, ss.  No CFI here, as in those
 * kernels: the profiler finds the interrupted context by the frame's
 * shape (unwind.h, the interrupt-frame rule).  The interrupted rcx and
 * r11 are restored, the caller-saved registers pushed (a pt_regs in
 * spirit), the stack aligned for the C call, and the return is a direct
 * iretq to the guest kernel (ring 3 in a 64-bit PV guest: RPL 3). */
	.globl hypervisor_callback
hypervisor_callback:
	mov	(%rsp), %rcx
	mov	8(%rsp), %r11
	add	$16, %rsp
	push	%rax
	push	%rcx
	push	%rdx
	push	%rsi
	push	%rdi
	push	%r8
	push	%r9
	push	%r10
	push	%r11
	push	%rbx
	mov	%rsp, %rbx
	and	$-16, %rsp
	call	do_upcall
	mov	%rbx, %rsp
	pop	%rbx
	pop	%r11
	pop	%r10
	pop	%r9
	pop	%r8
	pop	%rdi
	pop	%rsi
	pop	%rdx
	pop	%rcx
	pop	%rax
	orb	$3, 8(%rsp)
	orb	$3, 32(%rsp)
	iretq

	.section .text.hypercall, "ax"
	.balign 4096
	.globl hypercall_page
hypercall_page:			/* the domain builder writes the stubs here */
	/* 128 stubs of 32 bytes as Xen writes them for a 64-bit PV kernel:
	 * push %rcx (1 byte); push %r11 (2); mov $nr,%eax; syscall (7);
	 * pop %r11 (2); pop %rcx (1); ret.  The CFI follows the pushes, so a
	 * vCPU blocked in a hypercall (SCHEDOP_block: pc just past the
	 * syscall) is walked on into its caller. */
	.cfi_sections .debug_frame   /* beside the C code's rules (no .eh_frame) */
	.cfi_startproc simple
	.cfi_def_cfa %rsp, 8
	.cfi_offset %rip, -8
	.rept 128
	.fill 1, 1, 0xcc
	.cfi_def_cfa_offset 16
	.fill 2, 1, 0xcc
	.cfi_def_cfa_offset 24
	.fill 9, 1, 0xcc
	.cfi_def_cfa_offset 16
	.fill 1, 1, 0xcc
	.cfi_def_cfa_offset 8
	.fill 19, 1, 0xcc
	.endr
	.cfi_endproc

	.section .bss
	.balign 4096
stack0:
	.skip 65536
stack0_top:
