/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unwind/walk.c — the stack walker: CFI rows where a table covers the PC,
 * frame records elsewhere (unwind.h, "Walk").
 *
 * Memory comes through one window, a copy of target memory that starts
 * at the word needed and ends one page past that word's page, so a
 * typical stack (a few hundred bytes from sp up) costs one target read and
 * a deep one a read per page.  Trade-off: a window may copy bytes never
 * used; copying is cheaper than a round trip per frame on every backend.
 * The walk runs while the target is stopped: per frame it costs a module
 * search and a row search (no allocation, no libdw), next to the target
 * reads the frame-pointer walk needs as well.
 *
 * Invariants:
 *  1. Each step raises sp strictly (CFA > sp, or CFA == sp only for
 *     frame 0; a frame record must lie at or above sp and becomes
 *     sp = fp + 16), and every frame stays below sp0 + UNWIND_MAX_WINDOW.
 *  2. Every address sum is checked for wrap-around before it is used.
 *  3. At most `max` frames and UNWIND_MAX_READS reads per walk; target
 *     bytes are read only through window_word, bounds-checked.
 */
#include <errno.h>
#include <string.h>

#include "unwind/unwind.h"

/* A copy of target memory [base, base + len). */
struct window {
	uint64_t base;
	size_t len;
	unsigned char buf[2 * UNWIND_CHUNK];
};

/* Everything one walk needs. */
struct walker {
	struct uf_target *t;
	uint32_t id;
	struct window w;
	unsigned reads;
	struct unwind_stats *st;
	struct uf_err *err;
	enum uf_arch arch;
	uint64_t sp0;            /* sp at the sample: the stack window's floor */
};

/* Registers carried from frame to frame. */
struct frame {
	uint64_t pc, sp, fp, lr;
};

/* Internal: a caller frame was found.  Positive and outside enum
 * unwind_end, so that no -errno a backend returns (-ENETDOWN is -100)
 * can pass for it and leave the caller's words unset. */
#define STEP_OK (UNWIND_NEND + 1)

static int step_cfi(struct walker *k, const struct unwind_row *row, int first, struct frame *f);
static int step_fp(struct walker *k, int first, struct frame *f);
static int step_leaf(struct walker *k, const struct unwind_space *space, struct frame *f);
static int step_intr(struct walker *k, const struct unwind_space *space, struct frame *f);
static int is_known_code(const struct unwind_space *space, uint64_t addr);
static int follows_call(const unsigned char *code, size_t n);
static int word(struct walker *k, uint64_t addr, uint64_t *v);
static int window_load(struct walker *k, uint64_t addr);
static int add_off(uint64_t base, int64_t off, uint64_t *out);
static uint64_t strip_pac(enum uf_arch arch, uint64_t addr);

int unwind_walk(struct uf_target *t, uint32_t id, const struct uf_regs *r,
		const struct unwind_space *space, enum unwind_mode mode, uint64_t *pcs,
		size_t max, size_t *n, struct unwind_stats *st, struct uf_err *err)
{
	struct walker k = { .t = t, .id = id, .st = st, .err = err, .arch = r->arch, .sp0 = r->sp };
	struct frame f = { strip_pac(r->arch, r->pc), r->sp, r->fp, strip_pac(r->arch, r->lr) };
	int end = UNWIND_DEPTH;
	*n = 0;
	if (max == 0)
		return UNWIND_DEPTH;
	pcs[(*n)++] = f.pc;
	int exact = 1;   /* f.pc is where the CPU was (frame 0, an interrupted PC), not a return */
	while (*n < max) {
		const struct unwind_row *row = NULL;
		uint64_t bias = 0;
		if (mode != UNWIND_FP) {
			const struct unwind_table *tab = unwind_space_find(space, f.pc - !exact, &bias);
			row = tab ? unwind_table_find(tab, f.pc - !exact - bias) : NULL;
			if (!tab && bias == UINT64_MAX && st)
				st->unmapped++;
			if (row && row->cfa == UNWIND_CFA_EXPR)
				row = NULL;
		}
		int leaf = 0, intr = 0;
		end = UNWIND_NOINFO;
		if (row)
			end = step_cfi(&k, row, exact, &f);
		else if (mode == UNWIND_CFI)
			end = UNWIND_NOINFO;
		else if (mode == UNWIND_AUTO && exact && (end = step_leaf(&k, space, &f)) == STEP_OK)
			leaf = 1;
		else if (end >= 0 && mode == UNWIND_AUTO &&
			 (end = step_intr(&k, space, &f)) == STEP_OK)
			intr = 1;
		if (end != STEP_OK && end >= 0 && !row && mode != UNWIND_CFI)
			end = step_fp(&k, exact, &f);
		if (end != STEP_OK)
			break;
		exact = intr;
		if (st)
			row ? st->steps_cfi++ : leaf ? st->steps_leaf++ : intr ? st->steps_intr++ :
			st->steps_fp++;
		f.pc = strip_pac(r->arch, f.pc);
		if (f.pc == 0) {
			end = UNWIND_COMPLETE;
			break;
		}
		pcs[(*n)++] = f.pc;
		end = UNWIND_DEPTH;
	}
	if (end < 0)
		return end;
	if (st) {
		st->ends[end]++;
		st->frames += *n;
	}
	return end;
}

int unwind_mode_parse(const char *s, enum unwind_mode *out)
{
	static const char *const names[] = { "auto", "cfi", "fp" };
	for (int i = 0; i < 3; i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum unwind_mode)i;
			return 0;
		}
	}
	return -EINVAL;
}

/* One caller through a CFI row: CFA, then the return address and the
 * saved frame pointer relative to it.  STEP_OK with f updated, or an end. */
static int step_cfi(struct walker *k, const struct unwind_row *row, int first, struct frame *f)
{
	uint64_t cfa, ra = f->lr, fp = f->fp, addr;
	if (row->ra == UNWIND_RULE_UNDEF)
		return UNWIND_COMPLETE;
	if (row->ra == UNWIND_RULE_SAME && k->arch != UF_ARCH_AARCH64)
		return UNWIND_BAD_FRAME;
	if (add_off(row->cfa == UNWIND_CFA_SP ? f->sp : f->fp, row->cfa_off, &cfa) < 0 ||
	    cfa < f->sp || (cfa == f->sp && !first) || cfa - k->sp0 > UNWIND_MAX_WINDOW)
		return UNWIND_BAD_FRAME;
	int rc;
	if (row->ra == UNWIND_RULE_OFFSET) {
		if (add_off(cfa, row->ra_off, &addr) < 0)
			return UNWIND_BAD_FRAME;
		if ((rc = word(k, addr, &ra)) != STEP_OK)
			return rc;
	}
	if (row->fp == UNWIND_RULE_OFFSET) {
		if (add_off(cfa, row->fp_off, &addr) < 0)
			return UNWIND_BAD_FRAME;
		if ((rc = word(k, addr, &fp)) != STEP_OK)
			return rc;
	}
	*f = (struct frame){ ra, cfa, fp, ra };
	return STEP_OK;
}

/* One caller through the frame record at fp.  A zero fp ends the walk:
 * complete after at least one unwound frame, no information at frame 0. */
static int step_fp(struct walker *k, int first, struct frame *f)
{
	uint64_t next, ra;
	int rc;
	if (f->fp == 0)
		return first ? UNWIND_NOINFO : UNWIND_COMPLETE;
	if ((f->fp & 7) || f->fp < f->sp || f->fp > UINT64_MAX - 16 ||
	    f->fp - k->sp0 > UNWIND_MAX_WINDOW - 16)
		return UNWIND_BAD_FRAME;
	if ((rc = word(k, f->fp, &next)) != STEP_OK || (rc = word(k, f->fp + 8, &ra)) != STEP_OK)
		return rc;
	*f = (struct frame){ ra, f->fp + 16, next, ra };
	return STEP_OK;
}

/* The leaf rule (unwind.h, "Walk"): frame 0 without a CFI row, on
 * x86-64, as a frameless leaf: the return address is the word at sp.  It
 * is taken only when it points into code a CFI row covers (so the next
 * step has rules, and a stray stack word or a saved register rarely
 * passes) and, when the code bytes before it can be read, they end in a
 * call instruction.  STEP_OK with f updated; an end (or <0) otherwise, in
 * which case the caller tries the frame pointer instead. */
static int step_leaf(struct walker *k, const struct unwind_space *space, struct frame *f)
{
	uint64_t ra;
	int rc;
	if (k->arch != UF_ARCH_X86_64 || !space || f->sp > UINT64_MAX - 8)
		return UNWIND_NOINFO;
	if ((rc = word(k, f->sp, &ra)) != STEP_OK)
		return rc;
	if (ra < 8 || !is_known_code(space, ra - 1))
		return UNWIND_NOINFO;
	unsigned char code[8];
	struct uf_err ignore = { 0 };
	ssize_t got = k->reads < UNWIND_MAX_READS ? k->t->ops->read(k->t, k->id, ra - 8, code, 8, &ignore) : 0;
	if (k->reads < UNWIND_MAX_READS) {
		k->reads++;
		if (k->st)
			k->st->reads++;
	}
	if (got == 8 && !follows_call(code, 8))
		return UNWIND_NOINFO;
	*f = (struct frame){ ra, f->sp + 8, f->fp, ra };
	return STEP_OK;
}

/* The interrupt-frame rule (unwind.h, "Walk"): a frame without a CFI row
 * (entry code: Xen's event upcall, an IRQ stub) may hold, within
 * UNWIND_INTR_SCAN words above sp, the frame the CPU or the hypervisor
 * pushed on entry: rip, cs, rflags, rsp, ss.  The first plausible one
 * continues the walk at the interrupted rip and rsp, as perf does
 * through a signal frame.  STEP_OK, or an end (then the frame pointer is
 * tried), or <0. */
static int step_intr(struct walker *k, const struct unwind_space *space, struct frame *f)
{
	uint64_t w[5];
	int rc;
	if (k->arch != UF_ARCH_X86_64 || !space || (f->sp & 7))
		return UNWIND_NOINFO;
	for (unsigned i = 0; i < UNWIND_INTR_SCAN; i++) {
		uint64_t at = f->sp + 8ull * i;
		if (at < f->sp || at > UINT64_MAX - 40 || at + 40 - k->sp0 > UNWIND_MAX_WINDOW)
			return UNWIND_NOINFO;
		for (unsigned j = 0; j < 5; j++)
			if ((rc = word(k, at + 8 * j, &w[j])) != STEP_OK)
				return rc;
		uint64_t rip = w[0], cs = w[1], flags = w[2], rsp = w[3], ss = w[4];
		/* selectors are 16 bits, cs never null; RFLAGS bit 1 is always
		 * set, bits 3, 5, 15 and 22-63 never (Xen keeps bit 31 for
		 * its NMI mask); the interrupted stack lies above the frame */
		if (cs == 0 || cs > 0xffff || ss > 0xffff || !(flags & 2) || (flags & 0xffffffff00008028ull) ||
		    (flags >> 22 & 0x1ff) || rsp < at + 40 || rsp - k->sp0 > UNWIND_MAX_WINDOW)
			continue;
		uint64_t bias = 0;
		const struct unwind_table *tab = unwind_space_find(space, rip, &bias);
		if (!tab && bias == UINT64_MAX)
			continue;   /* the rip must lie in a known module */
		*f = (struct frame){ rip, rsp, f->fp, rip };
		return STEP_OK;
	}
	return UNWIND_NOINFO;
}

/* Is addr inside a module whose table has a row (of any kind) for it? */
static int is_known_code(const struct unwind_space *space, uint64_t addr)
{
	uint64_t bias = 0;
	const struct unwind_table *tab = unwind_space_find(space, addr, &bias);
	return tab && addr >= bias && unwind_table_find(tab, addr - bias) != NULL;
}

/* Do the n bytes code[0..n) (those just before a return address) end in
 * an x86-64 call: e8 rel32, or ff /2 with any ModRM/SIB/displacement form
 * (an optional REX prefix before ff needs no check: the ff is found at
 * the same distance)?  Prefixes other than REX and far calls are not
 * recognised. */
static int follows_call(const unsigned char *code, size_t n)
{
	if (n >= 5 && code[n - 5] == 0xe8)
		return 1;
	for (size_t len = 2; len <= 7 && len <= n; len++) {
		const unsigned char *p = code + n - len;
		unsigned mod = p[1] >> 6, reg = (p[1] >> 3) & 7, rm = p[1] & 7;
		if (p[0] != 0xff || reg != 2)
			continue;
		size_t want = mod == 3 ? 2 : mod == 1 ? 3 : mod == 2 ? 6 : rm == 5 ? 6 : 2;
		if (mod != 3 && rm == 4)   /* a SIB byte, and with mod 0 base 5 a disp32 */
			want += 1 + (mod == 0 && len >= 3 && (p[2] & 7) == 5 ? 4 : 0);
		if (want == len)
			return 1;
	}
	return 0;
}

/* The 8-byte word at addr, from the window or a fresh one starting
 * there.  STEP_OK, UNWIND_UNREADABLE, UNWIND_BAD_FRAME (wraps) or <0. */
static int word(struct walker *k, uint64_t addr, uint64_t *v)
{
	struct window *w = &k->w;
	if (addr > UINT64_MAX - 8)
		return UNWIND_BAD_FRAME;
	if (w->len < 8 || addr < w->base || addr - w->base > w->len - 8) {
		if (k->reads >= UNWIND_MAX_READS)
			return UNWIND_UNREADABLE;
		int rc = window_load(k, addr);
		if (rc < 0)
			return rc;
		if (w->len < 8)
			return UNWIND_UNREADABLE;
	}
	memcpy(v, w->buf + (addr - w->base), 8);
	return STEP_OK;
}

/* Copies [addr, end of addr's page + one page) from the target.  A short
 * read (unmapped page) leaves a shorter window; 0 bytes is not an error. */
static int window_load(struct walker *k, uint64_t addr)
{
	struct window *w = &k->w;
	uint64_t want = UNWIND_CHUNK - (addr & (UNWIND_CHUNK - 1)) + UNWIND_CHUNK;
	uint64_t room = addr ? -addr : UINT64_MAX; /* bytes below 2^64 */
	if (want > room)
		want = room;
	k->reads++;
	if (k->st)
		k->st->reads++;
	w->base = addr;
	w->len = 0;
	ssize_t got = k->t->ops->read(k->t, k->id, addr, w->buf, want, k->err);
	if (got < 0)
		return (int)got;
	w->len = (uint64_t)got <= want ? (size_t)got : (size_t)want;
	return 0;
}

/* *out = base + off, or -1 when that leaves [0, 2^64). */
static int add_off(uint64_t base, int64_t off, uint64_t *out)
{
	if (off >= 0 ? base > UINT64_MAX - (uint64_t)off : base < (uint64_t)-off)
		return -1;
	*out = base + (uint64_t)off;
	return 0;
}

/* AArch64 return addresses may carry pointer-authentication bits above
 * the 48-bit virtual address; x86-64 addresses are used as they are. */
static uint64_t strip_pac(enum uf_arch arch, uint64_t addr)
{
	if (arch == UF_ARCH_AARCH64 && (addr >> 55) == 0)
		return addr & ((1ull << 48) - 1);
	return addr;
}
