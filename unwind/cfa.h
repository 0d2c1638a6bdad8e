/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unwind/cfa.h — private to unwind/: runs one FDE's call-frame program
 * (its CIE's initial instructions, then its own) once, from its first
 * address to its last, and hands every row to a callback (unwind/cfa.c).
 */
#ifndef UF_UNWIND_CFA_H
#define UF_UNWIND_CFA_H

#include <stdint.h>

#include "unwind/unwind.h"

/* One FDE, as table.c decoded it; every pointer points into section data
 * that outlives the call, and every range was checked against it. */
struct cfa_prog {
	const uint8_t *cie, *cie_end;   /* the CIE's initial instructions */
	const uint8_t *fde, *fde_end;   /* the FDE's instructions */
	uint64_t caf;                   /* code alignment factor */
	int64_t daf;                    /* data alignment factor */
	uint64_t lo, hi;                /* the FDE's [initial location, + range) */
	int sp, fp, ra;                 /* DWARF numbers of SP, FP, RA */
	int aarch64;                    /* DW_CFA_GNU_window_save is negate_ra_state */
};

/* Receives the row (start unset: the caller's base) that holds over
 * [start, end); rows come in address order and never overlap.  Nonzero
 * stops the run and is returned by cfa_run. */
typedef int (*cfa_emit_fn)(void *ctx, uint64_t start, uint64_t end, const struct unwind_row *row);

/* Emits the rows of `p` over [p->lo, p->hi) in one linear pass over its
 * instructions.  Where the program turns malformed (a restore_state with
 * nothing remembered, a remember depth past CFA_MAX_STACK, an operand
 * past the end, DW_CFA_set_loc) the rest of the FDE gets one row with
 * cfa UNWIND_CFA_NONE.  Returns 0 or emit's nonzero return. */
int cfa_run(const struct cfa_prog *p, cfa_emit_fn emit, void *ctx);

#define CFA_MAX_STACK 64   /* remember_state depth (untrusted program) */

#endif
