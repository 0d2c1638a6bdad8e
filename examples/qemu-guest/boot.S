/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/qemu-guest/boot.S — multiboot v1 entry of the example guest:
 * 32-bit protected mode in, long mode out, then kmain().
 *
 * Trade-off: QEMU's multiboot loader only takes 32-bit ELF images, so the
 * image is linked as a 64-bit ELF (kept as the symbol file, .dbg) and
 * converted with objcopy; the code here runs from both.  The first 1 GiB
 * is identity-mapped with 2 MiB pages, so virtual = physical, as in
 * Unikraft's KVM guests.
 *
 * Invariants:
 *  1. kmain is entered with rbp = 0, so a frame-pointer walk ends there.
 *  2. Interrupts stay off: nothing but the workload runs.
 */
	.set MB_MAGIC, 0x1BADB002
	.set MB_FLAGS, 0x00000000
	.section .multiboot, "a"
	.align 4
	.long MB_MAGIC, MB_FLAGS, -(MB_MAGIC + MB_FLAGS)

	.section .bss
	.align 4096
	.globl pml4, pdpt, pd   /* examples/hostile-guest rewrites them */
pml4:	.skip 4096
pdpt:	.skip 4096
pd:	.skip 4096
	.align 16
stack_bottom:
	.skip 32768
stack_top:

	.section .text.boot, "ax"
	.code32
	.globl _start
_start:
	cli
	mov %ebx, %edi                  /* multiboot info, kept for kmain */
	mov $stack_top, %esp
	mov $pdpt, %eax
	or $3, %eax
	mov %eax, pml4
	mov $pd, %eax
	or $3, %eax
	mov %eax, pdpt
	xor %ecx, %ecx
1:	mov %ecx, %eax                  /* pd[i] = i * 2 MiB | present, rw, huge */
	shl $21, %eax
	or $0x83, %eax
	mov %eax, pd(,%ecx,8)
	movl $0, pd+4(,%ecx,8)
	inc %ecx
	cmp $512, %ecx
	jne 1b
	mov %cr4, %eax                  /* PAE */
	or $0x20, %eax
	mov %eax, %cr4
	mov $pml4, %eax
	mov %eax, %cr3
	mov $0xC0000080, %ecx           /* EFER.LME */
	rdmsr
	or $0x100, %eax
	wrmsr
	mov %cr0, %eax                  /* PG + PE */
	or $0x80000001, %eax
	mov %eax, %cr0
	lgdt gdt_ptr
	ljmp $0x08, $long_entry

	.code64
	.globl long_entry
long_entry:
	mov $0x10, %ax
	mov %ax, %ds
	mov %ax, %es
	mov %ax, %ss
	mov $stack_top, %rsp
	xor %ebp, %ebp                  /* invariant 1 */
	mov %edi, %edi                  /* zero-extend the multiboot pointer */
	call kmain
2:	hlt
	jmp 2b

	.section .rodata
	.align 8
gdt:	.quad 0
	.quad 0x00AF9A000000FFFF        /* 0x08: 64-bit code */
	.quad 0x00CF92000000FFFF        /* 0x10: data */
gdt_end:
gdt_ptr:
	.word gdt_end - gdt - 1
	.long gdt
