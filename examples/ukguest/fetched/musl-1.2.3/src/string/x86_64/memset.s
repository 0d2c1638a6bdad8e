# SPDX-License-Identifier: BSD-3-Clause
# examples/ukguest/fetched/musl-1.2.3/src/string/x86_64/memset.s — the
# guest's memset, like musl's x86_64 one a frameless leaf without CFI
# (see memcpy.s): 8 bytes per iteration, then the tail.
	.text
	.globl memset
	.type memset, @function
memset:
	mov %rdi, %rax
	movzbl %sil, %esi
	mov $0x0101010101010101, %r8
	imul %r8, %rsi
	mov %rdx, %rcx
	shr $3, %rcx
	jz 2f
1:	mov %rsi, (%rdi)
	add $8, %rdi
	dec %rcx
	jnz 1b
2:	and $7, %edx
	jz 4f
3:	movb %sil, (%rdi)
	inc %rdi
	dec %edx
	jnz 3b
4:	ret
	.size memset, . - memset
	.section .note.GNU-stack, "", @progbits
