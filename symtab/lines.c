/*
 * symtab/lines.c — file:line of an address from an ELF file's DWARF line
 * table, through libdw (symtab_lines_* in symtab/symtab.h).
 *
 * Used after sampling, for exports that carry source positions (record's
 * pprof).  libdw finds the compilation unit of an address (its address
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

int symtab_lines_inlined(struct symtab_lines *l, uint64_t addr, const char **names, int max)
{
	Dwarf_Die cu, *scopes = NULL;
	if (!l || !dwarf_addrdie(l->dw, (Dwarf_Addr)addr, &cu))
		return 0;
	int n = dwarf_getscopes(&cu, (Dwarf_Addr)addr, &scopes), k = 0;
	/* scopes run innermost first; the names are wanted outermost first */
	for (int i = n - 1; i >= 0 && k < max; i--) {
		if (dwarf_tag(&scopes[i]) != DW_TAG_inlined_subroutine)
			continue;
		Dwarf_Attribute a;
		const char *nm = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
		if (nm)
			names[k++] = nm;
	}
	free(scopes);
	return k;
}

void symtab_lines_free(struct symtab_lines *l)
{
	if (!l)
		return;
	dwarf_end(l->dw);
	close(l->fd);
	free(l);
}
