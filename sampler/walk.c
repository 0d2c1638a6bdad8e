/*
 * sampler/walk.c — the frame-pointer stack walker (x86-64, AArch64).
 *
 * Both architectures keep a two-word frame record at the frame pointer:
 * [fp] is the caller's frame pointer, [fp + 8] the return address.  The
 * walker copies the stack in windows that start at the record it needs
 * and end one page past that record's page, so a typical stack (a few
 * hundred bytes) costs one target read and a deep one a read per page.
 * Trade-off: a window may copy bytes never used; copying is cheaper than
 * a second round trip on every backend.
 *
 * Invariants:
 *  1. Every frame pointer accepted is 8-aligned, >= the previous one plus
 *     16 (so no loop can form), and within SAMPLER_MAX_WINDOW of sp.
 *  2. At most `max` frames and SAMPLER_MAX_READS reads per walk.
 *  3. Bytes from the target are only read through `win`, bounds-checked.
 */
#include <errno.h>
#include <string.h>

#include "sampler/sampler.h"

/* A copy of target memory [base, base + len). */
struct window {
	uint64_t base;
	size_t len;
	unsigned char buf[2 * SAMPLER_CHUNK];
};

static int window_load(struct uf_target *t, uint32_t id, struct window *w, uint64_t addr,
		       struct sampler_walk_stats *st, struct uf_err *err);
static int window_record(const struct window *w, uint64_t fp, uint64_t *next, uint64_t *ret);
static uint64_t strip_pac(enum uf_arch arch, uint64_t addr);
static int frame_record(struct uf_target *t, uint32_t id, struct window *w, unsigned *reads,
			uint64_t fp, uint64_t *next, uint64_t *ret, struct sampler_walk_stats *st,
			struct uf_err *err);

int sampler_walk(struct uf_target *t, uint32_t id, const struct uf_regs *r, uint64_t *pcs,
		 size_t max, size_t *n, struct sampler_walk_stats *st, struct uf_err *err)
{
	struct window w = { .base = 0, .len = 0 };
	unsigned reads = 0;
	uint64_t fp = r->fp, lo = r->sp;
	int end = SAMPLER_WALK_COMPLETE;

	*n = 0;
	if (max == 0)
		return SAMPLER_WALK_DEPTH;
	pcs[(*n)++] = strip_pac(r->arch, r->pc);
	while (fp != 0 && end == SAMPLER_WALK_COMPLETE) {
		uint64_t next, ret;
		if ((fp & 7) || fp < lo || fp - r->sp > SAMPLER_MAX_WINDOW - 16)
			end = SAMPLER_WALK_BAD_FP;
		else if (*n >= max)
			end = SAMPLER_WALK_DEPTH;
		else if ((end = frame_record(t, id, &w, &reads, fp, &next, &ret, st, err)) < 0)
			return end;
		else if (end == SAMPLER_WALK_COMPLETE && (ret = strip_pac(r->arch, ret)) == 0)
			break;
		else if (end == SAMPLER_WALK_COMPLETE) {
			pcs[(*n)++] = ret;
			lo = fp + 16;
			fp = next;
		}
	}
	if (st) {
		st->ends[end]++;
		st->frames += *n;
	}
	return end;
}

/* The record at fp, from the window or (within the read budget) from a
 * fresh window starting at fp.  Returns SAMPLER_WALK_COMPLETE when read,
 * SAMPLER_WALK_UNREADABLE, or <0 on a target error. */
static int frame_record(struct uf_target *t, uint32_t id, struct window *w, unsigned *reads,
			uint64_t fp, uint64_t *next, uint64_t *ret, struct sampler_walk_stats *st,
			struct uf_err *err)
{
	if (window_record(w, fp, next, ret) == 0)
		return SAMPLER_WALK_COMPLETE;
	if (*reads >= SAMPLER_MAX_READS)
		return SAMPLER_WALK_UNREADABLE;
	(*reads)++;
	int rc = window_load(t, id, w, fp, st, err);
	if (rc < 0)
		return rc;
	return window_record(w, fp, next, ret) == 0 ? SAMPLER_WALK_COMPLETE
						    : SAMPLER_WALK_UNREADABLE;
}

/* Copies [addr, end of addr's page + one page) from the target.  A short
 * read (unmapped page) leaves a shorter window; 0 bytes is not an error. */
static int window_load(struct uf_target *t, uint32_t id, struct window *w, uint64_t addr,
		       struct sampler_walk_stats *st, struct uf_err *err)
{
	uint64_t want = SAMPLER_CHUNK - (addr & (SAMPLER_CHUNK - 1)) + SAMPLER_CHUNK;
	uint64_t room = -addr; /* bytes below 2^64; addr != 0 here */
	if (want > room)
		want = room;
	if (st)
		st->reads++;
	w->base = addr;
	w->len = 0;
	ssize_t got = t->ops->read(t, id, addr, w->buf, want, err);
	if (got < 0)
		return (int)got;
	w->len = (uint64_t)got <= want ? (size_t)got : (size_t)want;
	return 0;
}

/* Reads the frame record at fp from the window; -1 when not inside it. */
static int window_record(const struct window *w, uint64_t fp, uint64_t *next, uint64_t *ret)
{
	if (w->len < 16 || fp < w->base || fp - w->base > w->len - 16)
		return -1;
	memcpy(next, w->buf + (fp - w->base), 8);
	memcpy(ret, w->buf + (fp - w->base) + 8, 8);
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
