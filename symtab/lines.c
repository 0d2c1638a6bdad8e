/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/lines.c — file:line of an address from an ELF file's DWARF line
 * table, through libdw (symtab_lines_* in symtab/symtab.h).
 *
 * Used after sampling, for exports that carry source positions (record's
 * pprof), the frames' source positions in record's SVG tooltips, and the
 * call chain of inlined functions (--inline, --lines).  libdw finds the
 * compilation unit of an address from .debug_aranges; a file without
 * them (clang emits none, and libdw 0.188 does not synthesise them) is
 * indexed here once, from every CU's own ranges (cu_of); then the line
 * row covering the address.
 *
 * Trade-off: the whole file stays open and libdw caches each CU's line
 * table on first use, so many lookups in one file are cheap; memory is
 * libdw's, about the size of the line tables touched.
 *
 * Invariants:
 *  1. Only a regular file is opened (O_NONBLOCK, then fstat), as every
 *     file the program reads.
 *  2. A lookup never fails the export: no CU or no row is -1, and the
 *     caller writes the location without a line.
 */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symtab/symtab.h"
#include "util/safe-open.h"

#define MAX_CU_RANGES (4u << 20)  /* address ranges indexed when .debug_aranges is missing */

struct cu_range {            /* [lo, hi) belongs to the CU whose DIE is at `die` */
	uint64_t lo, hi, die;
};

struct symtab_lines {
	int fd;
	Dwarf *dw;
	struct cu_range *ranges; /* cu_of's own index (sorted by lo), built on first miss */
	size_t nranges;
	int indexed;
};

static int range_cmp(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Every CU's address ranges (DW_AT_low_pc/high_pc or DW_AT_ranges, DWARF 5
 * rnglists included), sorted: for files without .debug_aranges (clang
 * emits none), where libdw 0.188's dwarf_addrdie finds nothing. */
static void index_cus(struct symtab_lines *l)
{
	size_t cap = 0, hsize;
	Dwarf_Off off = 0, next;
	l->indexed = 1;
	while (dwarf_nextcu(l->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die die;
		Dwarf_Addr base, lo, hi;
		ptrdiff_t o = 0;
		if (dwarf_offdie(l->dw, off + hsize, &die))
			while ((o = dwarf_ranges(&die, o, &base, &lo, &hi)) > 0 && l->nranges < MAX_CU_RANGES) {
				if (lo >= hi)
					continue;
				if (l->nranges == cap) {
					size_t nc = cap ? cap * 2 : 64;
					struct cu_range *r = realloc(l->ranges, nc * sizeof *r);
					if (!r)
						return;
					l->ranges = r, cap = nc;
				}
				l->ranges[l->nranges++] = (struct cu_range){ lo, hi, off + hsize };
			}
		off = next;
	}
	if (l->nranges)
		qsort(l->ranges, l->nranges, sizeof *l->ranges, range_cmp);
}

/* The CU containing addr: libdw's aranges, else our own index. */
static Dwarf_Die *cu_of(struct symtab_lines *l, uint64_t addr, Dwarf_Die *cu)
{
	if (dwarf_addrdie(l->dw, (Dwarf_Addr)addr, cu))
		return cu;
	if (!l->indexed)
		index_cus(l);
	size_t lo = 0, hi = l->nranges; /* first range with lo > addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (l->ranges[mid].lo <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* ranges rarely nest; look back a few for one that holds addr */
	for (size_t i = lo, k = 0; i > 0 && k < 8; i--, k++)
		if (addr < l->ranges[i - 1].hi)
			return dwarf_offdie(l->dw, l->ranges[i - 1].die, cu);
	return NULL;
}

struct symtab_lines *symtab_lines_open(const char *path, struct uf_err *err)
{
	const char *why;   /* a mapped file's path is the target's text */
	int fd = uf_safe_open(path, &why);
	if (fd < 0) {
		uf_err_set(err, UF_EINPUT, path, "%s", why);
		return NULL;
	}
	struct symtab_lines *l = calloc(1, sizeof *l);
	Dwarf *dw = l ? dwarf_begin(fd, DWARF_C_READ) : NULL;
	if (!dw) {
		uf_err_set(err, UF_EINPUT, path, "%s", l ? "no DWARF debug information" : "out of memory");
		free(l);
		close(fd);
		return NULL;
	}
	l->fd = fd;
	l->dw = dw;
	return l;
}

int symtab_lines_lookup(struct symtab_lines *l, uint64_t addr, const char **file, int *line)
{
	Dwarf_Die cu;
	if (!l || !cu_of(l, addr, &cu))
		return -1;
	Dwarf_Line *row = dwarf_getsrc_die(&cu, (Dwarf_Addr)addr);
	int n = 0;
	const char *src = row ? dwarf_linesrc(row, NULL, NULL) : NULL;
	if (!src || dwarf_lineno(row, &n) != 0)
		return -1;
	*file = src;
	*line = n;
	return 0;
}

const char *symtab_lines_cu_name(struct symtab_lines *l, uint64_t addr)
{
	Dwarf_Die cu;
	if (!l || !cu_of(l, addr, &cu))
		return NULL;
	return dwarf_diename(&cu);
}

const char *symtab_lines_cu_dir(struct symtab_lines *l, uint64_t addr)
{
	Dwarf_Die cu;
	Dwarf_Attribute a;
	if (!l || !dwarf_addrdie(l->dw, (Dwarf_Addr)addr, &cu))
		return NULL;
	return dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a));
}

int symtab_lines_inlined(struct symtab_lines *l, uint64_t addr, const char **names, int max)
{
	struct symtab_srcpos pos[SYMTAB_MAX_INLINE + 1];
	int n = symtab_lines_frames(l, addr, pos, names, max + 1 < SYMTAB_MAX_INLINE + 1 ?
							max + 1 : SYMTAB_MAX_INLINE + 1);
	return n > 0 ? n - 1 : 0;
}

/* The source file of an inlined scope's DW_AT_call_file (an index into
 * its CU's file table); NULL when DWARF does not say. */
static const char *call_file(Dwarf_Die *scope)
{
	Dwarf_Attribute a;
	Dwarf_Word idx;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_file, &a), &idx) != 0 ||
	    !dwarf_diecu(scope, &cu, NULL, NULL) || dwarf_getsrcfiles(&cu, &files, &nfiles) != 0 ||
	    idx >= nfiles)
		return NULL;
	return dwarf_filesrc(files, idx, NULL, NULL);
}

/* The innermost function-level scope at addr (an inlined instance or
 * the subprogram) into *out; 0, or -1 when DWARF has none. */
static int innermost_function(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Die *out)
{
	Dwarf_Die *scopes = NULL;
	int n = dwarf_getscopes(cu, addr, &scopes), rc = -1;
	for (int i = 0; i < n && rc; i++) {
		int tag = dwarf_tag(&scopes[i]);
		if (tag == DW_TAG_inlined_subroutine || tag == DW_TAG_subprogram) {
			*out = scopes[i];
			rc = 0;
		}
	}
	free(scopes);
	return rc;
}

/* The call site of an inlined scope (DW_AT_call_file/line): the position
 * one level out; {NULL, 0} when DWARF does not say. */
static struct symtab_srcpos call_site(Dwarf_Die *scope)
{
	Dwarf_Attribute a;
	Dwarf_Word line = 0;
	struct symtab_srcpos p = { call_file(scope), 0 };
	if (dwarf_formudata(dwarf_attr(scope, DW_AT_call_line, &a), &line) == 0 && line <= INT32_MAX)
		p.line = (int)line;
	if (!p.file || !p.line)
		p.file = NULL, p.line = 0;
	return p;
}

/* Walks the inlined levels from the innermost one out, as eu-addr2line
 * -i does: dwarf_getscopes() on an address continues past an inlined
 * instance with its abstract definition's scopes, not its caller's, so
 * the chain is taken from the innermost instance's DIE with
 * dwarf_getscopes_die(), which follows the concrete (lexical) tree up to
 * the subprogram.  Fills nm[k] and in[k + 1] (the call site) per level,
 * innermost first; returns the number of levels. */
static int walk_inlined(Dwarf_Die *cu, Dwarf_Addr addr, struct symtab_srcpos *in,
			const char **nm, int cap)
{
	Dwarf_Die fn, *chain = NULL;
	if (innermost_function(cu, addr, &fn) != 0 || dwarf_tag(&fn) != DW_TAG_inlined_subroutine)
		return 0;
	int n = dwarf_getscopes_die(&fn, &chain), k = 0;
	for (int i = 0; i < n && k < cap; i++) {
		int tag = dwarf_tag(&chain[i]);
		if (tag == DW_TAG_subprogram)
			break;
		if (tag != DW_TAG_inlined_subroutine)
			continue;  /* a lexical block between two levels */
		Dwarf_Attribute a;
		const char *s = dwarf_formstring(dwarf_attr_integrate(&chain[i], DW_AT_name, &a));
		if (!s)
			continue; /* a nameless level: its lines stay its caller's */
		nm[k] = s;
		in[k + 1] = call_site(&chain[i]);
		k++;
	}
	free(chain);
	return k;
}

int symtab_lines_frames(struct symtab_lines *l, uint64_t addr, struct symtab_srcpos *pos,
			const char **names, int max)
{
	Dwarf_Die cu;
	if (!l || max < 1 || !cu_of(l, addr, &cu))
		return 0;
	/* The innermost level's position is the address's line; each inlined
	 * scope's call site is the position one level out.  Built innermost
	 * first, then reversed into pos and names. */
	struct symtab_srcpos in[64];
	const char *nm[64];
	Dwarf_Line *row = dwarf_getsrc_die(&cu, (Dwarf_Addr)addr);
	in[0].file = row ? dwarf_linesrc(row, NULL, NULL) : NULL;
	in[0].line = 0;
	if (!in[0].file || dwarf_lineno(row, &in[0].line) != 0)
		in[0].file = NULL, in[0].line = 0;
	int k = max > 1 ? walk_inlined(&cu, (Dwarf_Addr)addr, in, nm, 63) : 0;
	int m = k < max - 1 ? k : max - 1; /* the outermost m levels are kept */
	if (m > SYMTAB_MAX_INLINE)
		m = SYMTAB_MAX_INLINE;
	for (int i = 0; i <= m; i++) /* outermost first */
		pos[i] = in[k - i];
	for (int i = 0; names && i < m; i++)
		names[i] = nm[k - 1 - i];
	return m + 1;
}

void symtab_lines_free(struct symtab_lines *l)
{
	if (!l)
		return;
	dwarf_end(l->dw);
	close(l->fd);
	free(l->ranges);
	free(l);
}
