/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/xen-guest/pvh-head.S — PVH entry of the test guest.
 *
 * Xen starts a PVH guest at XEN_ELFNOTE_PHYS32_ENTRY in 32-bit protected
 * mode, paging off, %ebx = physical address of struct hvm_start_info.  We
 * identity-map the first GiB with 2 MiB pages (so a sampler exercises its
 * large-page walk), enter long mode and call pvh_main with %rbp = 0, so
 * every frame-pointer walk ends at pvh_start64.
 */
#include "notes.h"

	xen_note XEN_ELFNOTE_GUEST_OS, str, "uf-xen-guest-pvh"
	xen_note XEN_ELFNOTE_GUEST_VERSION, str, "1"
	xen_note XEN_ELFNOTE_XEN_VERSION, str, "xen-3.0"
	xen_note XEN_ELFNOTE_PHYS32_ENTRY, .long, pvh_start

	.section .text.entry, "ax"
	.code32
	.globl pvh_start
pvh_start:
	cli
	cld
	mov	%ebx, start_info_pa
	mov	$pd, %edi		/* pd[i] = i * 2 MiB | PS | RW | P */
	mov	$0x83, %eax
	mov	$512, %ecx
1:	mov	%eax, (%edi)
	movl	$0, 4(%edi)
	add	$0x200000, %eax
	add	$8, %edi
	loop	1b
	lgdt	gdt_desc
	mov	%cr4, %eax
	or	$0x20, %eax		/* PAE */
	mov	%eax, %cr4
	mov	$pml4, %eax
	mov	%eax, %cr3
	mov	$0xc0000080, %ecx	/* EFER.LME */
	rdmsr
	or	$0x100, %eax
	wrmsr
	mov	%cr0, %eax
	or	$0x80000001, %eax	/* PG | PE */
	mov	%eax, %cr0
	ljmp	$0x08, $pvh_start64

	.code64
	.globl pvh_start64
pvh_start64:
	mov	$0x10, %eax
	mov	%eax, %ds
	mov	%eax, %es
	mov	%eax, %ss
	lea	stack_top(%rip), %rsp
	xor	%ebp, %ebp
	mov	start_info_pa(%rip), %edi
	call	pvh_main
	ud2

	.section .data
	.balign 8
gdt:	.quad 0, 0x00af9a000000ffff, 0x00cf92000000ffff	/* null, code64, data */
gdt_desc:
	.word	gdt_desc - gdt - 1
	.long	gdt
start_info_pa:
	.long	0
	.balign 4096
pml4:	.quad	pdpt + 3
	.fill	511, 8, 0
pdpt:	.quad	pd + 3
	.fill	511, 8, 0
pd:	.fill	512, 8, 0

	.section .bss
	.balign 4096
	.globl hypercall_page
hypercall_page:
	.skip	4096
stack:	.skip	65536
stack_top:
