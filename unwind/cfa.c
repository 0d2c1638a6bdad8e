/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unwind/cfa.c — a DWARF call-frame (CFA) program interpreter that walks
 * one FDE from its first address to its last in a single pass, emitting
 * a row at every location change (unwind/cfa.h).
 *
 * Why not libdw: dwarf_cfi_addrframe answers one address at a time and
 * re-executes the FDE's program from its start for each, so compiling
 * every row of an FDE with N rows costs N^2/2 instructions.  An FDE is
 * the target's text: one function with 100,000 rows (a 400 KB .so a
 * profiled process maps) made `record -p -T 1` take over 100 s.  Here
 * each instruction is executed exactly once; cost is linear in the
 * program's bytes, memory is one fixed-size remember stack.
 *
 * Only what a struct unwind_row can hold is tracked: the CFA rule
 * (register + offset, or "expression") and the rules of the frame
 * pointer and the return address.  Rules of other registers are skipped
 * (their operands still parsed).  The results equal libdw's for the same
 * FDE (tests/unit/test-unwind.c checks every row of real libraries
 * against dwarf_cfi_addrframe), including its ABI defaults: before the
 * CIE runs, FP and RA are "same value" (elfutils' x86_64 and aarch64
 * abi_cfi); the CFA is undefined (an EXPR row) until the CIE defines it.
 *
 * Invariants:
 *  1. Every operand read is bounds-checked against its program's end; a
 *     malformed program ends the FDE with a NONE row, never reads past.
 *  2. Rows are emitted in increasing address order, within [lo, hi).
 *  3. The remember stack holds at most CFA_MAX_STACK states.
 */
#include <dwarf.h>
#include <string.h>

#include "unwind/cfa.h"

enum { R_SAME, R_UNDEF, R_OFFSET, R_VAL, R_REG, R_EXPR };

struct rule {
	int kind;          /* R_* */
	int64_t n;         /* R_OFFSET: saved at CFA + n; R_REG: in register n */
};

struct state {
	int cfa_expr;      /* the CFA is an expression (or undefined) */
	uint64_t cfa_reg;
	int64_t cfa_off;
	struct rule fp, ra;
};

struct run {
	const struct cfa_prog *p;
	struct state cur, init;   /* init: after the CIE, for DW_CFA_restore */
	struct state stack[CFA_MAX_STACK];
	unsigned depth;
	uint64_t loc;
	cfa_emit_fn emit;
	void *ctx;
	int rc;                   /* emit's nonzero return, once */
};

static int exec(struct run *r, const uint8_t *ip, const uint8_t *end, int in_cie);
static int exec_one(struct run *r, uint8_t op, const uint8_t **ip, const uint8_t *end, int in_cie);
static int exec_stack(struct run *r, uint8_t op);
static int exec_rule(struct run *r, uint8_t op, const uint8_t **ip, const uint8_t *end);
static int exec_offset(struct run *r, uint8_t op, uint64_t reg, const uint8_t **ip,
		       const uint8_t *end);
static int exec_cfa(struct run *r, uint8_t op, const uint8_t **ip, const uint8_t *end);
static int advance(struct run *r, uint64_t delta);
static int emit_upto(struct run *r, uint64_t end, int none);
static void set_rule(struct run *r, uint64_t reg, int kind, int64_t n);
static void to_row(const struct cfa_prog *p, const struct state *s, struct unwind_row *row);
static int rule_kind(const struct rule *ru, int self, int16_t *off);
static int64_t mul(int64_t a, int64_t b);
static int uleb(const uint8_t **ip, const uint8_t *end, uint64_t *v);
static int sleb(const uint8_t **ip, const uint8_t *end, int64_t *v);
static int fixed(const uint8_t **ip, const uint8_t *end, unsigned n, uint64_t *v);

/* exec's results */
#define RUN_OK 0
#define RUN_BAD 1     /* malformed: the rest of the FDE gets a NONE row */
#define RUN_DONE 2    /* past hi, or emit asked to stop */

int cfa_run(const struct cfa_prog *p, cfa_emit_fn emit, void *ctx)
{
	static struct run zero;
	struct run r = zero;
	r.p = p;
	r.emit = emit;
	r.ctx = ctx;
	r.loc = p->lo;
	r.cur.cfa_expr = 1;
	r.cur.fp.kind = r.cur.ra.kind = R_SAME;
	int rc = exec(&r, p->cie, p->cie_end, 1);
	r.init = r.cur;
	r.depth = 0;
	if (rc == RUN_OK)
		rc = exec(&r, p->fde, p->fde_end, 0);
	if (rc != RUN_DONE)
		emit_upto(&r, p->hi, rc == RUN_BAD);
	return r.rc;
}

/* ---- execution ------------------------------------------------------------ */

static int exec(struct run *r, const uint8_t *ip, const uint8_t *end, int in_cie)
{
	while (ip && ip < end) {
		int rc = exec_one(r, *ip++, &ip, end, in_cie);
		if (rc != RUN_OK)
			return rc;
	}
	return RUN_OK;
}

/* One instruction whose opcode byte `op` was read; *ip at its operands. */
static int exec_one(struct run *r, uint8_t op, const uint8_t **ip, const uint8_t *end, int in_cie)
{
	uint64_t v;
	switch (op >> 6) {
	case 1:   /* DW_CFA_advance_loc: delta in the opcode */
		return in_cie ? RUN_OK : advance(r, (op & 0x3f) * r->p->caf);
	case 2:   /* DW_CFA_offset: register in the opcode, factored offset */
		if (uleb(ip, end, &v))
			return RUN_BAD;
		set_rule(r, op & 0x3f, R_OFFSET, mul((int64_t)v, r->p->daf));
		return RUN_OK;
	case 3:   /* DW_CFA_restore */
		set_rule(r, op & 0x3f, -1, 0);
		return RUN_OK;
	}
	unsigned size = op == DW_CFA_advance_loc1 ? 1 : op == DW_CFA_advance_loc2 ? 2
						       : op == DW_CFA_advance_loc4 ? 4 : 0;
	if (size) {
		if (fixed(ip, end, size, &v))
			return RUN_BAD;
		return in_cie ? RUN_OK : advance(r, v * r->p->caf);
	}
	switch (op) {
	case DW_CFA_nop:
		return RUN_OK;
	case DW_CFA_GNU_window_save:   /* AArch64: negate_ra_state, no rule change */
		return r->p->aarch64 ? RUN_OK : RUN_BAD;
	case DW_CFA_GNU_args_size:
		return uleb(ip, end, &v) ? RUN_BAD : RUN_OK;
	case DW_CFA_remember_state:
	case DW_CFA_restore_state:
		return exec_stack(r, op);
	case DW_CFA_def_cfa: case DW_CFA_def_cfa_sf: case DW_CFA_def_cfa_register:
	case DW_CFA_def_cfa_offset: case DW_CFA_def_cfa_offset_sf: case DW_CFA_def_cfa_expression:
		return exec_cfa(r, op, ip, end);
	default:   /* DW_CFA_set_loc and unknown opcodes included */
		return exec_rule(r, op, ip, end);
	}
}

/* remember_state pushes every rule (the CFA's too), restore_state pops. */
static int exec_stack(struct run *r, uint8_t op)
{
	if (op == DW_CFA_remember_state) {
		if (r->depth == CFA_MAX_STACK)
			return RUN_BAD;
		r->stack[r->depth++] = r->cur;
	} else {
		if (r->depth == 0)
			return RUN_BAD;
		r->cur = r->stack[--r->depth];
	}
	return RUN_OK;
}

/* The register-rule instructions with explicit operands. */
static int exec_rule(struct run *r, uint8_t op, const uint8_t **ip, const uint8_t *end)
{
	uint64_t reg, u, reg2;
	if (op == DW_CFA_set_loc || uleb(ip, end, &reg))
		return RUN_BAD;   /* set_loc: no compiler emits it; not followed */
	switch (op) {
	case DW_CFA_offset_extended: case DW_CFA_GNU_negative_offset_extended:
	case DW_CFA_offset_extended_sf: case DW_CFA_val_offset_sf: case DW_CFA_val_offset:
		return exec_offset(r, op, reg, ip, end);
	case DW_CFA_restore_extended:
		set_rule(r, reg, -1, 0);
		return RUN_OK;
	case DW_CFA_undefined:
		set_rule(r, reg, R_UNDEF, 0);
		return RUN_OK;
	case DW_CFA_same_value:
		set_rule(r, reg, R_SAME, 0);
		return RUN_OK;
	case DW_CFA_register:
		if (uleb(ip, end, &reg2))
			return RUN_BAD;
		set_rule(r, reg, R_REG, (int64_t)reg2);
		return RUN_OK;
	case DW_CFA_expression:
	case DW_CFA_val_expression:
		if (uleb(ip, end, &u) || u > (uint64_t)(end - *ip))
			return RUN_BAD;
		*ip += u;
		set_rule(r, reg, R_EXPR, 0);
		return RUN_OK;
	}
	return RUN_BAD;
}

/* "Saved at CFA + n" and "is CFA + n" rules of register `reg`, whose
 * factored offset operand follows. */
static int exec_offset(struct run *r, uint8_t op, uint64_t reg, const uint8_t **ip,
		       const uint8_t *end)
{
	uint64_t u = 0;
	int64_t s = 0;
	int sf = op == DW_CFA_offset_extended_sf || op == DW_CFA_val_offset_sf;
	if (sf ? sleb(ip, end, &s) : uleb(ip, end, &u))
		return RUN_BAD;
	s = mul(sf ? s : (int64_t)u, r->p->daf);
	if (op == DW_CFA_GNU_negative_offset_extended)
		s = mul(s, -1);
	set_rule(r, reg, op == DW_CFA_val_offset || op == DW_CFA_val_offset_sf ? R_VAL : R_OFFSET, s);
	return RUN_OK;
}

/* The instructions that define the CFA. */
static int exec_cfa(struct run *r, uint8_t op, const uint8_t **ip, const uint8_t *end)
{
	uint64_t reg = r->cur.cfa_reg, u;
	int64_t off = r->cur.cfa_off;
	if (op == DW_CFA_def_cfa_expression) {
		if (uleb(ip, end, &u) || u > (uint64_t)(end - *ip))
			return RUN_BAD;
		*ip += u;
		r->cur.cfa_expr = 1;
		return RUN_OK;
	}
	if ((op == DW_CFA_def_cfa || op == DW_CFA_def_cfa_sf || op == DW_CFA_def_cfa_register) &&
	    uleb(ip, end, &reg))
		return RUN_BAD;
	if (op == DW_CFA_def_cfa || op == DW_CFA_def_cfa_offset) {
		if (uleb(ip, end, &u))
			return RUN_BAD;
		off = (int64_t)u;
	} else if (op == DW_CFA_def_cfa_sf || op == DW_CFA_def_cfa_offset_sf) {
		if (sleb(ip, end, &off))
			return RUN_BAD;
		off = mul(off, r->p->daf);
	}
	/* a new register or offset alone needs a register rule to change */
	if (r->cur.cfa_expr && op != DW_CFA_def_cfa && op != DW_CFA_def_cfa_sf)
		return RUN_BAD;
	r->cur.cfa_expr = 0;
	r->cur.cfa_reg = reg;
	r->cur.cfa_off = off;
	return RUN_OK;
}

/* ---- rows ------------------------------------------------------------------ */

/* The current rules hold until loc + delta. */
static int advance(struct run *r, uint64_t delta)
{
	uint64_t to = r->loc + delta < r->loc ? UINT64_MAX : r->loc + delta;
	if (emit_upto(r, to, 0))
		return RUN_DONE;
	r->loc = to;
	return r->loc >= r->p->hi ? RUN_DONE : RUN_OK;
}

/* Emits [loc, min(end, hi)) with the current rules (`none`: a NONE row).
 * Nonzero when emit asked to stop. */
static int emit_upto(struct run *r, uint64_t end, int none)
{
	if (end > r->p->hi)
		end = r->p->hi;
	if (r->loc >= end)
		return 0;
	struct unwind_row row;
	memset(&row, 0, sizeof row);
	if (none)
		row.cfa = UNWIND_CFA_NONE;
	else
		to_row(r->p, &r->cur, &row);
	r->rc = r->emit(r->ctx, r->loc, end, &row);
	return r->rc;
}

/* Sets the rule of `reg` when it is FP or RA; kind -1 restores the CIE's. */
static void set_rule(struct run *r, uint64_t reg, int kind, int64_t n)
{
	struct rule *ru = reg == (uint64_t)r->p->fp ? &r->cur.fp
			  : reg == (uint64_t)r->p->ra ? &r->cur.ra : NULL;
	if (!ru)
		return;
	if (kind < 0)
		*ru = reg == (uint64_t)r->p->fp ? r->init.fp : r->init.ra;
	else
		*ru = (struct rule){ kind, n };
}

/* The row for a state, as table.c's walkers read it: a rule the row
 * cannot hold makes it an EXPR row (walkers fall back to frame pointers). */
static void to_row(const struct cfa_prog *p, const struct state *s, struct unwind_row *row)
{
	row->cfa = UNWIND_CFA_EXPR;
	if (!s->cfa_expr && s->cfa_off >= INT32_MIN && s->cfa_off <= INT32_MAX) {
		if (s->cfa_reg == (uint64_t)p->sp)
			row->cfa = UNWIND_CFA_SP;
		else if (s->cfa_reg == (uint64_t)p->fp)
			row->cfa = UNWIND_CFA_FP;
		row->cfa_off = (int32_t)s->cfa_off;
	}
	row->ra = (uint8_t)rule_kind(&s->ra, p->ra, &row->ra_off);
	row->fp = (uint8_t)rule_kind(&s->fp, p->fp, &row->fp_off);
	if (row->ra == UNWIND_RULE_EXPR)
		row->cfa = UNWIND_CFA_EXPR;
	if (row->fp == UNWIND_RULE_UNDEF)   /* unknown: keep the value we have */
		row->fp = UNWIND_RULE_SAME;
}

/* SAME, UNDEF, OFFSET (*off set) or EXPR; "saved in register `self`"
 * counts as SAME (AArch64 x30). */
static int rule_kind(const struct rule *ru, int self, int16_t *off)
{
	switch (ru->kind) {
	case R_SAME:
		return UNWIND_RULE_SAME;
	case R_UNDEF:
		return UNWIND_RULE_UNDEF;
	case R_REG:
		return ru->n == self ? UNWIND_RULE_SAME : UNWIND_RULE_EXPR;
	case R_OFFSET:
		if (ru->n < INT16_MIN || ru->n > INT16_MAX)
			return UNWIND_RULE_EXPR;
		*off = (int16_t)ru->n;
		return UNWIND_RULE_OFFSET;
	}
	return UNWIND_RULE_EXPR;
}

/* ---- operands ---------------------------------------------------------------- */

/* a * b wrapping (the operands are the file's: no undefined overflow) */
static int64_t mul(int64_t a, int64_t b)
{
	return (int64_t)((uint64_t)a * (uint64_t)b);
}

static int uleb(const uint8_t **ip, const uint8_t *end, uint64_t *v)
{
	uint64_t x = 0;
	unsigned sh = 0;
	uint8_t b = 0x80;
	while (*ip < end && (b & 0x80)) {
		b = *(*ip)++;
		if (sh < 64)
			x |= (uint64_t)(b & 0x7f) << sh;
		sh += 7;
	}
	*v = x;
	return (b & 0x80) ? -1 : 0;
}

static int sleb(const uint8_t **ip, const uint8_t *end, int64_t *v)
{
	const uint8_t *start = *ip;
	uint64_t x;
	if (uleb(ip, end, &x))
		return -1;
	unsigned sh = 7u * (unsigned)(*ip - start);
	if (sh < 64 && ((*ip)[-1] & 0x40))
		x |= ~0ull << sh;
	*v = (int64_t)x;
	return 0;
}

static int fixed(const uint8_t **ip, const uint8_t *end, unsigned n, uint64_t *v)
{
	if ((size_t)(end - *ip) < n)
		return -1;
	uint64_t x = 0;
	for (unsigned i = 0; i < n; i++)
		x |= (uint64_t)(*ip)[i] << (8 * i);
	*ip += n;
	*v = x;
	return 0;
}
