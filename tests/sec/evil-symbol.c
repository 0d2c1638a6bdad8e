/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/sec/evil-symbol.c — a target whose hot function's ELF symbol
 * holds a newline, ';' and a trailing " 5" (issue 20 item 5), for
 * tests/sec/t-target-files.sh.  The assembler writes the quoted name
 * with a literal backslash-n; the test then patches those two bytes in
 * the string table into "\n_", so the symbol really holds a newline.
 * Written raw into folded output, it would forge a line.
 *
 *     evil-symbol SECONDS
 */
#include <stdlib.h>
#include <time.h>

volatile unsigned long sink;

/* evil_entry (untyped, so symtab prefers the typed evil name) */
__asm__(".text\n"
	".globl evil_entry\n"
	".type \"evil\\nforged;stk 5\", @function\n"
	"evil_entry:\n"
	"\"evil\\nforged;stk 5\":\n"
	"	push %rbp\n"
	"	mov %rsp, %rbp\n"
	"	mov $100000, %ecx\n"
	"1:	addq %rcx, sink(%rip)\n"
	"	dec %ecx\n"
	"	jnz 1b\n"
	"	pop %rbp\n"
	"	ret\n"
	".size \"evil\\nforged;stk 5\", .-\"evil\\nforged;stk 5\"\n");
void evil_entry(void);

int main(int argc, char **argv)
{
	time_t end = time(NULL) + (argc > 1 ? atoi(argv[1]) : 2);
	while (time(NULL) < end)
		evil_entry();
	return 0;
}
