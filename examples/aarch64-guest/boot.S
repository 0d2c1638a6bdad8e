/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/aarch64-guest/boot.S — entry of the AArch64 example guest
 * under `qemu-system-aarch64 -M virt -kernel aarch64-guest.elf`.
 *
 * QEMU loads the ELF and starts vCPU 0 at _start in EL1 with the MMU off
 * (virtual = physical) and the device tree at the base of RAM; the other
 * vCPUs start powered off and are brought up by kmain through PSCI
 * CPU_ON at secondary_entry, with their index in x0.  Trade-off: no MMU,
 * so loads and stores see Device memory and must be aligned (the Makefile
 * passes -mstrict-align); in exchange there is no page-table code.
 *
 * Invariants:
 *  1. kmain / secondary_main are entered with x29 = x30 = 0, and the CFI
 *     marks the return address undefined, so frame-record and CFI walks
 *     both end there.
 *  2. vCPU N has its own 32 KiB stack, N < UF_MAX_CPUS (kernel.c).
 *  3. Interrupts stay masked: nothing but the workload runs.
 */
	.section .bss
	.balign 16
stacks:
	.skip 4 * 32768
stacks_top:

	.section .text.boot, "ax"
	.globl _start
	.type _start, %function
_start:
	.cfi_startproc
	.cfi_undefined x30
	msr daifset, #0xf               /* invariant 3 */
	mov x0, #0
	b enter
	.cfi_endproc
	.size _start, . - _start

	.globl secondary_entry
	.type secondary_entry, %function
secondary_entry:                        /* x0 = vCPU index (PSCI context) */
	.cfi_startproc
	.cfi_undefined x30
	msr daifset, #0xf
	b enter
	.cfi_endproc
	.size secondary_entry, . - secondary_entry

	.type enter, %function
enter:                                  /* sp = stacks_top - x0 * 32 KiB */
	.cfi_startproc
	.cfi_undefined x30
	ldr x1, =stacks_top
	lsl x2, x0, #15
	sub x1, x1, x2
	mov sp, x1
	mov x29, #0                     /* invariant 1 */
	mov x30, #0
	cbnz x0, 1f
	bl kmain
	b 2f
1:	bl secondary_main
2:	wfi
	b 2b
	.cfi_endproc
	.size enter, . - enter
	.ltorg
