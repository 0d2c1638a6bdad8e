/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unwind/table.c — one ELF file's CFI compiled into sorted 16-byte rows
 * (unwind.h, "Tables").
 *
 * The FDEs are enumerated with libdw's dwarf_next_cfi (which parses CIE
 * and FDE headers) and their initial location decoded by hand (the
 * pointer encoding named by the CIE's 'R' augmentation in .eh_frame,
 * plain addresses in .debug_frame).  Each FDE's program is then run once,
 * start to end, by unwind/cfa.c, which emits a row at every location
 * change.  Trade-off: we interpret DWARF CFA instructions ourselves (only
 * the rules a row holds: CFA, RA, FP), because libdw's per-address
 * dwarf_cfi_addrframe re-runs the program from the FDE's start for each
 * row — quadratic in the rows of one FDE, which the target controls (a
 * 100,000-row FDE made `record -p -T 1` take 24 s, issue 28).
 *
 * Where .eh_frame and .debug_frame both describe an address, .eh_frame
 * wins (it is what the program itself would unwind with); overlapping
 * ranges are clipped so rows never overlap.
 *
 * Invariants:
 *  1. The file is untrusted: every pointer into section data is checked
 *     against the section's end; counts are capped (UNWIND_MAX_FDES,
 *     UNWIND_MAX_ROWS); ranges past 4 GiB above the table base are dropped.
 *     An FDE whose CIE or program names a register past MAX_DWARF_REG (or
 *     an opcode we do not know) is dropped before its program runs (kept
 *     from when libdw ran it: libdw sized each row's register table by the
 *     largest number named, 1 s and 340 MiB per row for register
 *     2,096,656; unwind/cfa.c tracks three rules, so it is now only a
 *     filter of programs no compiler writes).
 *  2. Output rows are sorted by start, contiguous rows with equal rules
 *     are merged, a NONE row closes every covered run.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unwind/cfa.h"
#include "unwind/unwind.h"
#include "util/safe-open.h"
#include "util/vec.h"

#define SRC_EH 0
#define SRC_DEBUG 1

struct range {
	uint64_t lo, hi;           /* the part this range's rows cover (clipped) */
	int src;
	struct cfa_prog prog;      /* the FDE's program; prog.lo/hi unclipped */
};

struct ranges {
	struct range *v;
	size_t n, cap;
};

struct rows {
	struct unwind_row *v;
	size_t n, cap;
};

/* Per-architecture DWARF register numbers. */
struct regnos {
	int sp, fp, ra;
};

/* The CIE last looked up, so FDEs sharing it decode without a re-read. */
struct cie_cache {
	Dwarf_Off off;
	int enc;     /* pointer encoding, -1 = unusable */
	int zaug;    /* "z..." augmentation: FDEs carry augmentation data */
	int valid;
	uint64_t caf;                    /* code alignment factor */
	int64_t daf;                     /* data alignment factor */
	const uint8_t *init, *init_end;  /* initial instructions */
};

/* What compile_range's emit callback needs. */
struct sink {
	struct rows *out;
	const struct range *rg;
	uint64_t base;
	uint32_t *nexpr;
};

/* The largest DWARF register number a CFA rule may name: x86-64 ends at
 * 130 (k7 is 125), AArch64 at 127 (z31); libdw allocates a table up to
 * the largest number a row's program names. */
#define MAX_DWARF_REG 255

static struct unwind_table *build(Elf *elf, const char *label, struct uf_err *err);
static int list_sections(Elf *elf, struct ranges *rg);
static int check_elf(Elf *elf, enum uf_arch *arch);
static Elf_Scn *find_section(Elf *elf, const char *name);
static int list_fdes(Elf *elf, Elf_Scn *scn, int src, struct ranges *out);
static int fde_range(const unsigned char *ident, Elf_Data *d, uint64_t sec_addr, int src,
		     const Dwarf_FDE *fde, struct cie_cache *cc, struct range *r);
static int cie_encoding(const unsigned char *ident, Elf_Data *d, int src, Dwarf_Off off,
			struct cie_cache *cc);
static int cfa_regs_ok(const uint8_t *p, const uint8_t *end, int enc);
static int read_encoded(int enc, const uint8_t **p, const uint8_t *end, uint64_t *v);
static int enc_skip(int enc, const uint8_t **p, const uint8_t *end);
static size_t clip_ranges(struct ranges *r);
static int compile_range(struct range *rg, uint64_t base, const struct regnos *rn, int aarch64,
			 struct rows *out, uint32_t *nexpr);
static int take_row(void *ctx, uint64_t start, uint64_t end, const struct unwind_row *row);
static int push_row(struct rows *out, const struct unwind_row *row);
static int cmp_range(const void *a, const void *b);

struct unwind_table *unwind_table_open(const char *path, struct uf_err *err)
{
	const char *why;   /* vetted before opened: util/safe-open.h */
	int fd = uf_safe_open(path, &why);
	if (fd < 0) {
		uf_err_set(err, UF_EINPUT, path, "%s", why);
		return NULL;
	}
	struct unwind_table *t = unwind_table_open_fd(fd, path, err);
	close(fd);
	return t;
}

struct unwind_table *unwind_table_open_fd(int fd, const char *label, struct uf_err *err)
{
	struct stat sb;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode)) {
		uf_err_set(err, UF_EINPUT, label, "not a regular file");
		return NULL;
	}
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf) {
		uf_err_set(err, UF_EINPUT, label, "not an ELF file");
		return NULL;
	}
	struct unwind_table *t = build(elf, label, err);
	elf_end(elf);
	return t;
}

void unwind_table_free(struct unwind_table *t)
{
	if (!t)
		return;
	free(t->index);
	free(t->rows);
	free(t);
}

int unwind_table_index(struct unwind_table *t)
{
	uint64_t span = t->end - t->base;
	unsigned shift = 6;
	if (t->nrows < 64)
		return 0; /* a plain search is as fast */
	while ((span >> shift) > 2ull * t->nrows + 16)
		shift++;
	uint32_t n = (uint32_t)(span >> shift) + 1, r = 0;
	uint32_t *ix = malloc(((size_t)n + 1) * sizeof *ix);
	if (!ix)
		return -ENOMEM;
	for (uint32_t b = 0; b <= n; b++) { /* last row starting at or before the bucket */
		uint64_t at = (uint64_t)b << shift;
		while (r + 1 < t->nrows && t->rows[r + 1].start <= at)
			r++;
		ix[b] = r;
	}
	free(t->index);
	t->index = ix;
	t->nindex = n;
	t->shift = shift;
	return 0;
}

const struct unwind_row *unwind_table_find(const struct unwind_table *t, uint64_t vaddr)
{
	if (!t || t->nrows == 0 || vaddr < t->base || vaddr >= t->end)
		return NULL;
	uint32_t off = (uint32_t)(vaddr - t->base), lo = 0, hi = t->nrows;
	if (t->index && (off >> t->shift) < t->nindex) {
		lo = t->index[off >> t->shift];
		hi = t->index[(off >> t->shift) + 1] + 1;
	}
	while (hi - lo > 1) { /* last row with start <= off; rows[0].start == 0 */
		uint32_t mid = lo + (hi - lo) / 2;
		if (t->rows[mid].start <= off)
			lo = mid;
		else
			hi = mid;
	}
	return t->rows[lo].cfa == UNWIND_CFA_NONE ? NULL : &t->rows[lo];
}

int unwind_table_check(const struct unwind_table *t)
{
	if (t->nrows == 0)
		return 0;
	if (t->rows[t->nrows - 1].cfa != UNWIND_CFA_NONE ||
	    t->base + t->rows[t->nrows - 1].start != t->end)
		return 1;
	for (uint32_t i = 1; i < t->nrows; i++)
		if (t->rows[i].start <= t->rows[i - 1].start || t->rows[i].cfa > UNWIND_CFA_EXPR)
			return 1;
	return 0;
}

/* ---- building ------------------------------------------------------------ */

static struct unwind_table *build(Elf *elf, const char *label, struct uf_err *err)
{
	struct unwind_table *t = calloc(1, sizeof *t);
	struct ranges rg = { 0 };
	struct rows rows = { 0 };
	const char *why = "out of memory";
	if (!t)
		goto fail;
	if (check_elf(elf, &t->arch) < 0) {
		why = "not a 64-bit little-endian x86-64 or AArch64 ELF file";
		goto fail;
	}
	struct regnos rn = t->arch == UF_ARCH_AARCH64 ? (struct regnos){ 31, 29, 30 }
						      : (struct regnos){ 7, 6, 16 };
	if (list_sections(elf, &rg) < 0)
		goto fail;
	size_t n = clip_ranges(&rg);
	if (n)
		t->base = rg.v[0].lo;
	for (size_t i = 0; i < n && rg.v[i].hi - t->base <= UINT32_MAX; i++) {
		if (compile_range(&rg.v[i], t->base, &rn, t->arch == UF_ARCH_AARCH64, &rows,
				  &t->nexpr) < 0)
			goto fail;
		*(rg.v[i].src == SRC_EH ? &t->nfde_eh : &t->nfde_debug) += 1;
	}
	t->rows = rows.v;
	t->nrows = (uint32_t)rows.n;
	t->end = rows.n ? t->base + rows.v[rows.n - 1].start : 0;
	unwind_table_index(t);
	free(rg.v);
	return t;
fail:
	uf_err_set(err, UF_EINPUT, label, "%s", why);
	free(rows.v);
	free(rg.v);
	free(t);
	return NULL;
}

/* The FDE ranges of .eh_frame and of .debug_frame (either may be
 * absent).  0 or -ENOMEM. */
static int list_sections(Elf *elf, struct ranges *rg)
{
	Elf_Scn *eh = find_section(elf, ".eh_frame"), *dbg = find_section(elf, ".debug_frame");
	if (eh && list_fdes(elf, eh, SRC_EH, rg) < 0)
		return -ENOMEM;
	if (dbg && list_fdes(elf, dbg, SRC_DEBUG, rg) < 0)
		return -ENOMEM;
	return 0;
}

static int check_elf(Elf *elf, enum uf_arch *arch)
{
	GElf_Ehdr eh;
	size_t n;
	const char *id = elf_getident(elf, &n);
	if (elf_kind(elf) != ELF_K_ELF || !id || n < EI_NIDENT || id[EI_CLASS] != ELFCLASS64 ||
	    id[EI_DATA] != ELFDATA2LSB || !gelf_getehdr(elf, &eh))
		return -1;
	if (eh.e_machine == EM_X86_64)
		*arch = UF_ARCH_X86_64;
	else if (eh.e_machine == EM_AARCH64)
		*arch = UF_ARCH_AARCH64;
	else
		return -1;
	return 0;
}

static Elf_Scn *find_section(Elf *elf, const char *name)
{
	size_t shstrndx;
	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		return NULL;
	for (Elf_Scn *s = elf_nextscn(elf, NULL); s; s = elf_nextscn(elf, s)) {
		GElf_Shdr sh;
		const char *nm;
		if (gelf_getshdr(s, &sh) && sh.sh_type != SHT_NOBITS &&
		    (nm = elf_strptr(elf, shstrndx, sh.sh_name)) && !strcmp(nm, name))
			return s;
	}
	return NULL;
}

/* Appends the [lo, hi) of every usable FDE in section `scn`.  0 or -ENOMEM. */
static int list_fdes(Elf *elf, Elf_Scn *scn, int src, struct ranges *out)
{
	GElf_Shdr sh;
	Elf_Data *d = gelf_getshdr(scn, &sh) ? elf_getdata(scn, NULL) : NULL;
	const unsigned char *ident = (const unsigned char *)elf_getident(elf, NULL);
	struct cie_cache cc = { 0 };
	if (!d || !d->d_buf || !ident)
		return 0;
	Dwarf_Off off = 0, next;
	for (size_t count = 0; off < d->d_size && count < UNWIND_MAX_FDES; count++, off = next) {
		Dwarf_CFI_Entry e;
		int rc = dwarf_next_cfi(ident, d, src == SRC_EH, off, &next, &e);
		if (rc == 1)
			break;
		if (rc < 0 && (next == (Dwarf_Off)-1 || next <= off))
			break;
		if (rc < 0 || dwarf_cfi_cie_p(&e))
			continue;
		struct range r;
		if (fde_range(ident, d, sh.sh_addr, src, &e.fde, &cc, &r) < 0)
			continue;
		if (uf_vec_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v) < 0)
			return -ENOMEM;
		out->v[out->n++] = r;
	}
	return 0;
}

/* Decodes an FDE's initial location and address range.  0 or -1 (skip). */
static int fde_range(const unsigned char *ident, Elf_Data *d, uint64_t sec_addr, int src,
		     const Dwarf_FDE *fde, struct cie_cache *cc, struct range *r)
{
	if (!cc->valid || cc->off != fde->CIE_pointer) {
		cc->off = fde->CIE_pointer;
		cc->enc = cie_encoding(ident, d, src, fde->CIE_pointer, cc);
		cc->valid = 1;
	}
	const uint8_t *base = d->d_buf, *p = fde->start, *end = fde->end;
	const uint8_t *dend = base + d->d_size;
	uint64_t lo, len;
	if (cc->enc < 0 || p < base || end > dend || p > end)
		return -1;
	uint64_t field = sec_addr + (uint64_t)(p - base);
	if (read_encoded(cc->enc, &p, end, &lo) < 0 || read_encoded(cc->enc & 0x0f, &p, end, &len) < 0)
		return -1;
	uint64_t alen = 0;   /* the FDE's augmentation data, then its program */
	if (cc->zaug && (read_encoded(DW_EH_PE_uleb128, &p, end, &alen) < 0 || alen > (uint64_t)(end - p)))
		return -1;
	if (cfa_regs_ok(p + alen, end, cc->enc) < 0)
		return -1;
	if ((cc->enc & 0x70) == DW_EH_PE_pcrel)
		lo += field;
	if (len == 0 || len > (1ull << 32) || lo + len < lo)
		return -1;
	*r = (struct range){ lo, lo + len, src, { 0 } };
	r->prog = (struct cfa_prog){ .cie = cc->init, .cie_end = cc->init_end, .fde = p + alen,
				     .fde_end = end, .caf = cc->caf, .daf = cc->daf,
				     .lo = lo, .hi = lo + len };
	return 0;
}

/* The FDE pointer encoding of the CIE at `off`: from the 'R' letter of a
 * "z..." augmentation in .eh_frame, absolute 8-byte addresses otherwise;
 * *zaug says whether FDEs carry augmentation data.  -1 when the CIE
 * cannot be read, its augmentation is not understood, or its return
 * address column or initial program names a register no architecture
 * has (MAX_DWARF_REG). */
static int cie_encoding(const unsigned char *ident, Elf_Data *d, int src, Dwarf_Off off,
			struct cie_cache *cc)
{
	Dwarf_CFI_Entry e;
	Dwarf_Off next;
	int *zaug = &cc->zaug;
	*zaug = 0;
	if (dwarf_next_cfi(ident, d, src == SRC_EH, off, &next, &e) != 0 || !dwarf_cfi_cie_p(&e))
		return -1;
	if (e.cie.return_address_register > MAX_DWARF_REG ||
	    cfa_regs_ok(e.cie.initial_instructions, e.cie.initial_instructions_end, DW_EH_PE_absptr) < 0)
		return -1;
	cc->caf = e.cie.code_alignment_factor;
	cc->daf = e.cie.data_alignment_factor;
	cc->init = e.cie.initial_instructions;
	cc->init_end = e.cie.initial_instructions_end;
	const char *aug = e.cie.augmentation;
	if (!aug || !aug[0])
		return DW_EH_PE_absptr;
	if (aug[0] != 'z' || !e.cie.augmentation_data)
		return -1;
	*zaug = 1;
	const uint8_t *p = e.cie.augmentation_data, *end = p + e.cie.augmentation_data_size;
	int enc = DW_EH_PE_absptr;
	for (const char *a = aug + 1; *a; a++) {
		if (*a == 'R' && p < end)
			enc = *p++;
		else if (*a == 'L' && p < end)
			p++;
		else if (*a == 'P' && p < end) {
			int penc = *p++;
			if (enc_skip(penc, &p, end) < 0)
				return -1;
		} else if (*a != 'S' && *a != 'B' && *a != 'G')
			return -1;
	}
	return enc;
}

/* 0 when every register CFA program [p, end) names is at most
 * MAX_DWARF_REG, -1 when one is larger, an opcode is unknown or an
 * operand runs past the end.  Only skims: operands other than register
 * numbers are skipped, expression blocks unread (libdw evaluates them per
 * use, they do not size its tables).  `enc`: DW_CFA_set_loc's encoding. */
static int cfa_regs_ok(const uint8_t *p, const uint8_t *end, int enc)
{
	uint64_t reg, v;
#define ULEB(x) (read_encoded(DW_EH_PE_uleb128, &p, end, &(x)) < 0)
#define REG() (ULEB(reg) || reg > MAX_DWARF_REG)
	while (p && p < end) {
		uint8_t op = *p++;
		if (op >> 6 == 1 || op >> 6 == 3)   /* advance_loc, restore: operand in op */
			continue;
		if (op >> 6 == 2) {                 /* offset: register in op, offset */
			if (ULEB(v))
				return -1;
			continue;
		}
		size_t skip = 0;
		switch (op) {
		case DW_CFA_nop: case DW_CFA_remember_state: case DW_CFA_restore_state:
		case DW_CFA_GNU_window_save:
			break;
		case DW_CFA_set_loc:
			if (enc_skip(enc, &p, end) < 0)
				return -1;
			break;
		case DW_CFA_advance_loc1: skip = 1; break;
		case DW_CFA_advance_loc2: skip = 2; break;
		case DW_CFA_advance_loc4: skip = 4; break;
		case DW_CFA_offset_extended: case DW_CFA_offset_extended_sf: case DW_CFA_def_cfa:
		case DW_CFA_def_cfa_sf: case DW_CFA_val_offset: case DW_CFA_val_offset_sf:
		case DW_CFA_GNU_negative_offset_extended:
			if (REG() || ULEB(v))   /* an sleb128 skips as a uleb128 */
				return -1;
			break;
		case DW_CFA_restore_extended: case DW_CFA_undefined: case DW_CFA_same_value:
		case DW_CFA_def_cfa_register:
			if (REG())
				return -1;
			break;
		case DW_CFA_register:
			if (REG() || REG())
				return -1;
			break;
		case DW_CFA_def_cfa_offset: case DW_CFA_def_cfa_offset_sf: case DW_CFA_GNU_args_size:
			if (ULEB(v))
				return -1;
			break;
		case DW_CFA_def_cfa_expression:
			if (ULEB(v))
				return -1;
			skip = v;
			break;
		case DW_CFA_expression: case DW_CFA_val_expression:
			if (REG() || ULEB(v))
				return -1;
			skip = v;
			break;
		default:
			return -1;
		}
		if (skip > (size_t)(end - p))
			return -1;
		p += skip;
	}
#undef ULEB
#undef REG
	return 0;
}

static int enc_skip(int enc, const uint8_t **p, const uint8_t *end)
{
	uint64_t v;
	return read_encoded(enc & 0x0f, p, end, &v);
}

/* Reads one value in pointer-encoding format `enc & 0x0f` (little-endian,
 * 64-bit absptr); sign-extends the sdata forms.  0 or -1. */
static int read_encoded(int enc, const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	static const unsigned char size[16] = { 8, 0, 2, 4, 8, 0, 0, 0, 0, 0, 2, 4, 8 };
	int fmt = enc & 0x0f, app = enc & 0x70;
	if (enc == DW_EH_PE_omit || (app != 0 && app != DW_EH_PE_pcrel))
		return -1;
	if (fmt == DW_EH_PE_uleb128 || fmt == DW_EH_PE_sleb128) {
		uint64_t x = 0;
		unsigned sh = 0;
		uint8_t b = 0x80;
		while (*p < end && (b & 0x80) && sh < 64) {
			b = *(*p)++;
			x |= (uint64_t)(b & 0x7f) << sh;
			sh += 7;
		}
		if (b & 0x80)
			return -1;
		if (fmt == DW_EH_PE_sleb128 && sh < 64 && (b & 0x40))
			x |= ~0ull << sh;
		*v = x;
		return 0;
	}
	unsigned n = size[fmt];
	if (n == 0 || end - *p < (ptrdiff_t)n)
		return -1;
	uint64_t x = 0;
	for (unsigned i = 0; i < n; i++)
		x |= (uint64_t)(*p)[i] << (8 * i);
	if (fmt >= DW_EH_PE_sdata2 && n < 8 && (x >> (8 * n - 1)) & 1)
		x |= ~0ull << (8 * n);
	*p += n;
	*v = x;
	return 0;
}

/* Sorts the ranges (.eh_frame first at equal starts), drops empty and
 * covered ones and clips overlaps.  Returns how many remain. */
static size_t clip_ranges(struct ranges *r)
{
	size_t k = 0;
	if (r->n)
		qsort(r->v, r->n, sizeof *r->v, cmp_range);
	for (size_t i = 0; i < r->n; i++) {
		struct range x = r->v[i];
		if (k && x.lo < r->v[k - 1].hi)
			x.lo = r->v[k - 1].hi;
		if (x.lo < x.hi)
			r->v[k++] = x;
	}
	r->n = k;
	return k;
}

static int cmp_range(const void *a, const void *b)
{
	const struct range *x = a, *y = b;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->src - y->src;
}

/* Rows of one range, then a NONE row at its end (replaced by the next
 * range's first row when that starts right there): the FDE's program run
 * once (unwind/cfa.c), its rows clipped to the range.  0 or -ENOMEM. */
static int compile_range(struct range *rg, uint64_t base, const struct regnos *rn, int aarch64,
			 struct rows *out, uint32_t *nexpr)
{
	if (out->n && out->v[out->n - 1].cfa == UNWIND_CFA_NONE &&
	    out->v[out->n - 1].start == (uint32_t)(rg->lo - base))
		out->n--; /* the previous range ends where this one starts */
	rg->prog.sp = rn->sp;
	rg->prog.fp = rn->fp;
	rg->prog.ra = rn->ra;
	rg->prog.aarch64 = aarch64;
	struct sink k = { out, rg, base, nexpr };
	if (cfa_run(&rg->prog, take_row, &k) == -ENOMEM)
		return -ENOMEM;
	struct unwind_row none = { .start = (uint32_t)(rg->hi - base), .cfa = UNWIND_CFA_NONE };
	return push_row(out, &none);
}

/* cfa_run's callback: the part of [start, end) inside the range becomes a
 * row.  -ENOMEM, 1 (stop) at UNWIND_MAX_ROWS or past the range, else 0. */
static int take_row(void *ctx, uint64_t start, uint64_t end, const struct unwind_row *row)
{
	struct sink *k = ctx;
	if (start >= k->rg->hi || k->out->n >= UNWIND_MAX_ROWS)
		return 1;
	if (end <= k->rg->lo)
		return 0;
	struct unwind_row r = *row;
	r.start = (uint32_t)((start > k->rg->lo ? start : k->rg->lo) - k->base);
	*k->nexpr += r.cfa == UNWIND_CFA_EXPR;
	return push_row(k->out, &r);
}

/* Appends a row, merging it into the previous one when the rules match. */
static int push_row(struct rows *out, const struct unwind_row *row)
{
	if (out->n) {
		struct unwind_row *p = &out->v[out->n - 1];
		if (p->cfa == row->cfa && p->cfa_off == row->cfa_off && p->ra == row->ra &&
		    p->ra_off == row->ra_off && p->fp == row->fp && p->fp_off == row->fp_off)
			return 0;
		if (p->start == row->start) {
			*p = *row;
			return 0;
		}
	}
	if (uf_vec_grow(&out->v, &out->cap, out->n + 1, sizeof *out->v) < 0)
		return -ENOMEM;
	out->v[out->n++] = *row;
	return 0;
}
