/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/lines.c — file:line of an address from an ELF file's DWARF line
 * table, through libdw (symtab_lines_* in symtab/symtab.h).
 *
 * Used after sampling, for exports that carry source positions (record's
 * pprof), the frames' source positions in record's SVG tooltips, and the
 * call chain of inlined functions (--inline, --lines).  libdw finds the compilation unit of an address (its address
 * ranges, synthesised from the CUs when .debug_aranges is missing) and
 * the line row covering it.
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

struct symtab_lines {
	int fd;
	Dwarf *dw;
};

struct symtab_lines *symtab_lines_open(const char *path, struct uf_err *err)
{
	struct stat sb;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		uf_err_set(err, UF_EINPUT, path, "%s", fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
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
	if (!l || !dwarf_addrdie(l->dw, (Dwarf_Addr)addr, &cu))
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
	if (!l || !dwarf_addrdie(l->dw, (Dwarf_Addr)addr, &cu))
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

int symtab_lines_frames(struct symtab_lines *l, uint64_t addr, struct symtab_srcpos *pos,
			const char **names, int max)
{
	Dwarf_Die cu, *scopes = NULL;
	if (!l || max < 1 || !dwarf_addrdie(l->dw, (Dwarf_Addr)addr, &cu))
		return 0;
	/* The innermost level's position is the address's line; each inlined
	 * scope's call site is the position one level out.  Built innermost
	 * first into the end of the arrays, then moved to the front. */
	struct symtab_srcpos in[64];
	const char *nm[64];
	int k = 0;
	Dwarf_Line *row = dwarf_getsrc_die(&cu, (Dwarf_Addr)addr);
	in[0].file = row ? dwarf_linesrc(row, NULL, NULL) : NULL;
	in[0].line = 0;
	if (!in[0].file || dwarf_lineno(row, &in[0].line) != 0)
		in[0].file = NULL, in[0].line = 0;
	int n = max > 1 ? dwarf_getscopes(&cu, (Dwarf_Addr)addr, &scopes) : 0;
	for (int i = 0; i < n && k < 63; i++) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		Dwarf_Attribute a;
		Dwarf_Word line = 0;
		const char *s = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
		if (!s)
			continue; /* a nameless level: its lines stay its caller's */
		nm[k] = s;
		in[k + 1].file = call_file(&scopes[i]);
		in[k + 1].line = dwarf_formudata(dwarf_attr(&scopes[i], DW_AT_call_line, &a), &line) == 0 &&
				 line <= INT32_MAX ? (int)line : 0;
		if (!in[k + 1].file || !in[k + 1].line)
			in[k + 1].file = NULL, in[k + 1].line = 0;
		k++;
	}
	free(scopes);
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
	free(l);
}
