# SPDX-License-Identifier: BSD-3-Clause
# examples/ukguest/fetched/musl-1.2.3/src/string/x86_64/memcpy.s — the
# guest's memcpy, written like musl's x86_64 one: a frameless leaf with no
# CFI directives (Unikraft assembles musl's .s files as they are, so these
# functions have no FDE anywhere).  The return address stays at (%rsp)
# from the first instruction to the ret: what unwind/walk.c's leaf rule
# relies on.  Copies 8 bytes per iteration, then the tail byte by byte, in
# plain loops (not rep movs) so samples spread over the body.
	.text
	.globl memcpy
	.type memcpy, @function
memcpy:
	mov %rdi, %rax
	mov %rdx, %rcx
	shr $3, %rcx
	jz 2f
1:	mov (%rsi), %r8
	mov %r8, (%rdi)
	add $8, %rsi
	add $8, %rdi
	dec %rcx
	jnz 1b
2:	and $7, %edx
	jz 4f
3:	movb (%rsi), %r8b
	movb %r8b, (%rdi)
	inc %rsi
	inc %rdi
	dec %edx
	jnz 3b
4:	ret
	.size memcpy, . - memcpy
	.section .note.GNU-stack, "", @progbits
