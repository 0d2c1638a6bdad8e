/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unwind/unwind.h — registers plus stack memory into return addresses:
 * the frame-pointer walker, the CFI unwinder, and the tables it reads.
 *
 * Tables.  Each ELF file (a program, a shared library, a guest .dbg) has
 * its unwind rules compiled once, through libdw's CFI API, from both
 * .eh_frame and .debug_frame (Unikraft builds with
 * -fno-asynchronous-unwind-tables, so its C code has rules only in the
 * .dbg's .debug_frame) into a sorted array of 16-byte rows: PC range ->
 * CFA = SP or FP + offset, where the return address and the caller's
 * frame pointer (rbp / x29) are saved.  Rules the row cannot hold (DWARF
 * expressions, registers other than SP/FP/LR) are kept as "expr" rows and
 * that frame falls back to the frame pointer.  The per-sample path does a
 * binary search and two additions per frame; it never calls libdw.
 *
 * Address space.  An unwind_space maps runtime address ranges to tables
 * with a load bias (runtime = file vaddr + bias): a Linux process gets one
 * module per executable mapping from /proc/PID/maps, a guest one module
 * (its -x file, bias 0).  Tables are cached by file identity, so a library
 * mapped twice is compiled once.  Modules are added while the target runs
 * (never inside a pause).
 *
 * Walk, per frame (frame 0 looks up pc, later frames pc - 1):
 *   CFI row found (modes auto, cfi): CFA = base + off; return address and
 *     saved frame pointer read at CFA + their offsets; sp = CFA.
 *   no usable row, frame 0, mode auto, x86-64 (the leaf rule): a
 *     frameless leaf without CFI, as the assembly memcpy/memset of musl
 *     (Unikraft assembles them without CFI and builds C with
 *     -fno-asynchronous-unwind-tables) or Xen's hypercall_page: the return
 *     address is the word at sp, sp += 8, fp unchanged.  Taken only when
 *     that word points into code some table has a row for (the caller's
 *     rules then continue the walk) and, when the target lets the 8 code
 *     bytes before it be read, those end in a call (e8 rel32, ff /2).
 *     Limits: a function without CFI that has pushed something is
 *     misread when the pushed word is itself a return address into
 *     covered code (rare: pushes save registers and frame pointers); a
 *     leaf whose caller has no CFI either falls back to the frame
 *     pointer; on a target that refuses code reads (a fused gdb sample)
 *     the call check is skipped and the CFI coverage alone decides.
 *   no usable row, any frame, mode auto, x86-64, the leaf rule not taken
 *     (the interrupt-frame rule): entry code without CFI, as a Xen PV
 *     guest's event-channel upcall (hypervisor_callback) or an IRQ stub,
 *     below which the hypervisor or the CPU pushed the interrupted
 *     context, rip cs rflags rsp ss (Xen PV pushes rcx and r11 below it
 *     too; entry code then pushes a pt_regs).  The first 5 words within
 *     UNWIND_INTR_SCAN words above sp that look like one (cs non-null and
 *     16-bit, ss 16-bit, rflags with bit 1 set and its reserved bits
 *     clear, rsp above the frame and within the window, rip in a module
 *     of the space) continue the walk at rip (looked up as rip, not
 *     rip - 1: a frame like frame 0, where the leaf rule applies again)
 *     with sp = rsp, fp unchanged (entry code that saves registers does
 *     not change rbp before its call).  Limits: a stack slot sequence
 *     that mimics such a frame (a selector-sized value, a flags-like
 *     value and a higher stack address after a code address) is taken
 *     for one; an entry that switched stacks is followed only when the
 *     interrupted stack lies above the entry's, within the window.
 *   no usable row otherwise (mode auto, and every frame in mode fp): the
 *     frame record at fp: [fp] = caller's fp, [fp + 8] = return address,
 *     sp = fp + 16.
 * Ends: COMPLETE when the outermost frame is reached (the return address
 * is undefined in CFI, is 0, or a frame pointer of 0 follows at least one
 * unwound frame); DEPTH at max; BAD_FRAME for a CFA or frame pointer that
 * does not increase, is misaligned, lies outside the stack window or would
 * wrap past 2^64; UNREADABLE when memory fails; NOINFO when a frame has
 * neither a usable CFI row nor a frame pointer (a one-frame walk with
 * rbp == 0 is NOINFO, not COMPLETE).
 *
 * Invariants:
 *  1. A walk terminates for every memory image: each step strictly raises
 *     the stack pointer (CFA or fp + 16), never past sp0 + UNWIND_MAX_WINDOW,
 *     every address sum is checked for wrap-around, at most `max` frames
 *     and UNWIND_MAX_READS target reads.
 *  2. pcs[0] is the sampled PC; pcs[1..] are return addresses.
 *  3. Target bytes are read only through bounds-checked windows.
 *  4. Tables are immutable once built; rows are sorted, non-overlapping,
 *     and a gap between covered ranges is an explicit NONE row.
 *  5. Nothing here prints or exits; failures fill struct uf_err.
 */
#ifndef UF_UNWIND_H
#define UF_UNWIND_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "target/target.h"   /* the target interface: ops only, no sampler code */
#include "util/err.h"

#define UNWIND_MAX_WINDOW (64ull << 20)   /* bytes above sp0 a frame may lie */
#define UNWIND_CHUNK 4096u                /* read granule */
#define UNWIND_MAX_READS 256u             /* target reads per walk */
#define UNWIND_MAX_ROWS (8u << 20)        /* rows per table (untrusted file) */
#define UNWIND_MAX_FDES (4u << 20)        /* FDEs per table */
#define UNWIND_MAX_MODULES 65536u         /* modules per space */
#define UNWIND_INTR_SCAN 64u              /* words above sp searched for an interrupt frame */

enum unwind_mode {
	UNWIND_AUTO = 0,   /* CFI where a row covers the PC, else the frame pointer */
	UNWIND_CFI,        /* CFI only: a frame without a row ends the walk */
	UNWIND_FP,         /* frame pointers only (the walk before CFI existed) */
};

enum unwind_end {
	UNWIND_COMPLETE = 0,
	UNWIND_DEPTH,
	UNWIND_BAD_FRAME,
	UNWIND_UNREADABLE,
	UNWIND_NOINFO,
	UNWIND_NEND
};

struct unwind_stats {
	uint64_t ends[UNWIND_NEND];   /* walks by how they ended */
	uint64_t reads;               /* target reads issued */
	uint64_t frames;              /* frames produced (pcs written) */
	uint64_t steps_cfi;           /* caller frames found through CFI */
	uint64_t steps_fp;            /* caller frames found through a frame pointer */
	uint64_t steps_leaf;          /* callers found by the leaf rule (return address at sp) */
	uint64_t steps_intr;          /* interrupted frames found by the interrupt-frame rule */
	uint64_t unmapped;            /* frames whose PC lies in no module of the space
				       * (a library mapped since the space was filled) */
};

/* ---- tables ------------------------------------------------------------- */

/* Row kinds (cfa) and rule kinds (ra, fp). */
enum { UNWIND_CFA_NONE = 0, UNWIND_CFA_SP, UNWIND_CFA_FP, UNWIND_CFA_EXPR };
enum { UNWIND_RULE_SAME = 0,  /* unchanged (AArch64 RA: still in x30) */
       UNWIND_RULE_UNDEF,     /* RA: outermost frame */
       UNWIND_RULE_OFFSET,    /* saved at CFA + off */
       UNWIND_RULE_EXPR };    /* cannot be expressed: fall back */

struct unwind_row {
	uint32_t start;     /* vaddr - table base; the row runs to the next row */
	int32_t cfa_off;
	int16_t ra_off;
	int16_t fp_off;
	uint8_t cfa;        /* UNWIND_CFA_* */
	uint8_t ra;         /* UNWIND_RULE_* */
	uint8_t fp;         /* UNWIND_RULE_* */
	uint8_t pad;
};

struct unwind_table {
	uint64_t base, end;          /* rows cover [base, end) (with NONE gaps) */
	struct unwind_row *rows;     /* owned */
	uint32_t nrows;
	enum uf_arch arch;
	uint32_t nfde_eh, nfde_debug;  /* FDEs used from .eh_frame / .debug_frame */
	uint32_t nexpr;              /* rows that fall back */
	/* Optional lookup index (unwind_table_index): bucket b of 2^shift
	 * bytes from base starts its search at row index[b]; NULL = plain
	 * binary search over all rows. */
	uint32_t *index;             /* owned; nindex + 1 entries */
	uint32_t nindex;
	unsigned shift;
};

/* Builds the table of the ELF file at `path` (borrowed).  A readable ELF
 * without any CFI gives a table with no rows (not an error).  NULL with
 * *err (UF_EINPUT, what = path) when the file cannot be read or is not a
 * 64-bit x86-64 / AArch64 ELF.  The file is opened O_NONBLOCK and must be
 * a regular file. */
struct unwind_table *unwind_table_open(const char *path, struct uf_err *err);
/* Same from an open descriptor (borrowed; not closed). */
struct unwind_table *unwind_table_open_fd(int fd, const char *label, struct uf_err *err);
void unwind_table_free(struct unwind_table *t);
/* Builds t->index (tables from unwind_table_open have one): a lookup then
 * searches a handful of rows instead of all.  0 or -ENOMEM (the table
 * still works without). */
int unwind_table_index(struct unwind_table *t);
/* The row covering file address `vaddr`, or NULL (NONE rows too). */
const struct unwind_row *unwind_table_find(const struct unwind_table *t, uint64_t vaddr);
/* Checks invariant 4; 0 or 1. */
int unwind_table_check(const struct unwind_table *t);

/* ---- address spaces ------------------------------------------------------- */

struct unwind_space;

/* Returns an owned empty space (free with unwind_space_free), NULL on OOM. */
struct unwind_space *unwind_space_new(void);
void unwind_space_free(struct unwind_space *s);
/* Maps [start, end) to the ELF file at `path`, runtime = vaddr + bias.
 * A file that cannot be read is not an error (the module then has no
 * rows: frame pointers there); 0 or -ENOMEM. */
int unwind_space_add_file(struct unwind_space *s, uint64_t start, uint64_t end, uint64_t bias,
			  const char *path);
/* Maps [start, end) to `t` (taken: freed with the space).  0 or -ENOMEM
 * (t is freed then too). */
int unwind_space_add_table(struct unwind_space *s, uint64_t start, uint64_t end, uint64_t bias,
			   struct unwind_table *t);
/* Adds every executable file mapping of process `pid` not yet known
 * (/proc/PID/maps; files through /proc/PID/map_files or inside
 * /proc/PID/root, vetted by util/safe-open.h: regular files only, never
 * a device's open, never blocking).  Load biases come from each
 * file's PT_LOAD headers.  0, or -errno when the maps cannot be read. */
int unwind_space_add_pid(struct unwind_space *s, pid_t pid);
/* Same from maps text (borrowed); each path is resolved inside the
 * directory `root` (symlinks confined to it; "" for the host's view) and
 * opened only when it is a regular file (util/safe-open.h). */
int unwind_space_add_maps(struct unwind_space *s, const char *maps, size_t len,
			  const char *root);
/* The table and bias for runtime address `addr`, or NULL (no module, or
 * a module without CFI: *bias is then UINT64_MAX when no module at all
 * contains addr). */
const struct unwind_table *unwind_space_find(const struct unwind_space *s, uint64_t addr,
					     uint64_t *bias);
/* Counts for reports: modules, modules with rows, total rows, bytes. */
void unwind_space_stats(const struct unwind_space *s, size_t *modules, size_t *with_cfi,
			size_t *rows, size_t *bytes);

/* ---- walking -------------------------------------------------------------- */

/* Walks thread `id` of `t` from `r` into pcs[0..*n) (caller-owned, at most
 * `max`, *n >= 1 when max >= 1).  `space` may be NULL (frame pointers
 * only).  Returns enum unwind_end, or <0 with *err when the target failed
 * other than by an unreadable address.  `st` may be NULL. */
int unwind_walk(struct uf_target *t, uint32_t id, const struct uf_regs *r,
		const struct unwind_space *space, enum unwind_mode mode, uint64_t *pcs,
		size_t max, size_t *n, struct unwind_stats *st, struct uf_err *err);

/* Parses "auto", "cfi", "fp"; 0 or -EINVAL. */
int unwind_mode_parse(const char *s, enum unwind_mode *out);

#endif
