/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * elfload/elfutils.c — libelf and libdw loaded on first use, for the
 * release binary.
 *
 * Why: most runs never read an ELF file (render, fold and diff of a
 * profile), yet loading libdw.so.1 and what it pulls in (libelf, liblzma,
 * libbz2) at every start cost 0.28 ms of the ~1 ms a process takes to
 * start, a tenth of rendering the 646 KB perf capture.  This file defines
 * every libelf and libdw function uniprof-flame calls, with the libraries'
 * own prototypes (their headers are included, so the compiler checks each
 * one); the first call opens libdw.so.1 and looks all of them up, and
 * every call goes through the table.  symtab/ and unwind/ are unchanged.
 *
 * Trade-offs: the libraries stay Debian's shared ones (they parse
 * untrusted files and get security updates).  The ASan build, the unit
 * tests and the static binary link them directly; only build/uniprof-flame
 * links this file (Makefile REL_LIBS), and tests/record/t-release.sh runs
 * that binary's ELF and DWARF paths end to end.  A missing library or
 * symbol is what the dynamic loader would have refused at start: one line
 * on stderr and exit status 127, as ld.so gives.
 *
 * Invariants:
 *  1. Every function is looked up before any is called (pthread_once), so
 *     threads see a complete table.
 *  2. libdw's own calls into libelf go to libelf itself: the executable does
 *     not export these names (no -rdynamic), so the libraries bind to each
 *     other, never back to these wrappers.
 */
#include <dlfcn.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define LIBDW "libdw.so.1"

/* X(return type, name, parameters, arguments) for each function used. */
#define ELFUTILS_FUNCS(X)                                                                     \
	X(unsigned int, elf_version, (unsigned int v), (v))                                   \
	X(Elf *, elf_begin, (int fd, Elf_Cmd cmd, Elf *ref), (fd, cmd, ref))                  \
	X(Elf *, elf_memory, (char *image, size_t size), (image, size))                      \
	X(int, elf_end, (Elf *elf), (elf))                                                    \
	X(int, elf_errno, (void), ())                                                         \
	X(const char *, elf_errmsg, (int error), (error))                                     \
	X(Elf_Kind, elf_kind, (Elf *elf), (elf))                                              \
	X(char *, elf_getident, (Elf *elf, size_t *n), (elf, n))                              \
	X(int, elf_getphdrnum, (Elf *elf, size_t *dst), (elf, dst))                           \
	X(int, elf_getshdrnum, (Elf *elf, size_t *dst), (elf, dst))                           \
	X(int, elf_getshdrstrndx, (Elf *elf, size_t *dst), (elf, dst))                        \
	X(Elf_Scn *, elf_nextscn, (Elf *elf, Elf_Scn *scn), (elf, scn))                       \
	X(size_t, elf_ndxscn, (Elf_Scn *scn), (scn))                                          \
	X(Elf_Data *, elf_getdata, (Elf_Scn *scn, Elf_Data *data), (scn, data))              \
	X(char *, elf_strptr, (Elf *elf, size_t index, size_t offset), (elf, index, offset)) \
	X(size_t, gelf_fsize, (Elf *elf, Elf_Type type, size_t count, unsigned int version), \
	  (elf, type, count, version))                                                        \
	X(GElf_Ehdr *, gelf_getehdr, (Elf *elf, GElf_Ehdr *dest), (elf, dest))               \
	X(GElf_Phdr *, gelf_getphdr, (Elf *elf, int ndx, GElf_Phdr *dst), (elf, ndx, dst))   \
	X(GElf_Shdr *, gelf_getshdr, (Elf_Scn *scn, GElf_Shdr *dst), (scn, dst))             \
	X(GElf_Sym *, gelf_getsym, (Elf_Data *data, int ndx, GElf_Sym *dst), (data, ndx, dst)) \
	X(size_t, gelf_getnote,                                                               \
	  (Elf_Data *data, size_t offset, GElf_Nhdr *result, size_t *name_offset,             \
	   size_t *desc_offset),                                                              \
	  (data, offset, result, name_offset, desc_offset))                                   \
	X(Dwarf *, dwarf_begin, (int fd, Dwarf_Cmd cmd), (fd, cmd))                           \
	X(Dwarf *, dwarf_begin_elf, (Elf *elf, Dwarf_Cmd cmd, Elf_Scn *scngrp),               \
	  (elf, cmd, scngrp))                                                                 \
	X(int, dwarf_end, (Dwarf *dwarf), (dwarf))                                            \
	X(Dwarf_Die *, dwarf_addrdie, (Dwarf *dbg, Dwarf_Addr addr, Dwarf_Die *result),      \
	  (dbg, addr, result))                                                                \
	X(Dwarf_Attribute *, dwarf_attr,                                                      \
	  (Dwarf_Die *die, unsigned int search_name, Dwarf_Attribute *result),                \
	  (die, search_name, result))                                                         \
	X(Dwarf_Attribute *, dwarf_attr_integrate,                                            \
	  (Dwarf_Die *die, unsigned int search_name, Dwarf_Attribute *result),                \
	  (die, search_name, result))                                                         \
	X(Dwarf_Die *, dwarf_diecu,                                                           \
	  (Dwarf_Die *die, Dwarf_Die *result, uint8_t *address_sizep, uint8_t *offset_sizep), \
	  (die, result, address_sizep, offset_sizep))                                         \
	X(const char *, dwarf_diename, (Dwarf_Die *die), (die))                               \
	X(int, dwarf_tag, (Dwarf_Die *die), (die))                                            \
	X(const char *, dwarf_formstring, (Dwarf_Attribute *attr), (attr))                    \
	X(int, dwarf_formudata, (Dwarf_Attribute *attr, Dwarf_Word *uval), (attr, uval))      \
	X(int, dwarf_getscopes, (Dwarf_Die *cudie, Dwarf_Addr pc, Dwarf_Die **scopes),       \
	  (cudie, pc, scopes))                                                                \
	X(int, dwarf_getscopes_die, (Dwarf_Die *die, Dwarf_Die **scopes), (die, scopes))      \
	X(int, dwarf_nextcu, (Dwarf *dw, Dwarf_Off off, Dwarf_Off *next, size_t *hsize,      \
			     Dwarf_Off *abbrev, uint8_t *asize, uint8_t *osize),              \
	  (dw, off, next, hsize, abbrev, asize, osize))                                       \
	X(Dwarf_Die *, dwarf_offdie, (Dwarf *dw, Dwarf_Off off, Dwarf_Die *die), (dw, off, die)) \
	X(ptrdiff_t, dwarf_ranges, (Dwarf_Die *die, ptrdiff_t off, Dwarf_Addr *base,          \
				    Dwarf_Addr *start, Dwarf_Addr *end),                      \
	  (die, off, base, start, end))                                                       \
	X(Dwarf_Line *, dwarf_getsrc_die, (Dwarf_Die *cudie, Dwarf_Addr addr), (cudie, addr)) \
	X(int, dwarf_getsrcfiles, (Dwarf_Die *cudie, Dwarf_Files **files, size_t *nfiles),    \
	  (cudie, files, nfiles))                                                             \
	X(const char *, dwarf_filesrc,                                                        \
	  (Dwarf_Files *file, size_t idx, Dwarf_Word *mtime, Dwarf_Word *length),             \
	  (file, idx, mtime, length))                                                         \
	X(int, dwarf_lineno, (Dwarf_Line *line, int *linep), (line, linep))                   \
	X(const char *, dwarf_linesrc, (Dwarf_Line *line, Dwarf_Word *mtime, Dwarf_Word *length), \
	  (line, mtime, length))                                                              \
	X(Dwarf_CFI *, dwarf_getcfi, (Dwarf *dwarf), (dwarf))                                 \
	X(Dwarf_CFI *, dwarf_getcfi_elf, (Elf *elf), (elf))                                   \
	X(int, dwarf_cfi_end, (Dwarf_CFI *cache), (cache))                                    \
	X(int, dwarf_cfi_addrframe, (Dwarf_CFI *cache, Dwarf_Addr address, Dwarf_Frame **frame), \
	  (cache, address, frame))                                                            \
	X(int, dwarf_frame_info, (Dwarf_Frame *frame, Dwarf_Addr *start, Dwarf_Addr *end, bool *signalp), \
	  (frame, start, end, signalp))                                                       \
	X(int, dwarf_frame_cfa, (Dwarf_Frame *frame, Dwarf_Op **ops, size_t *nops),          \
	  (frame, ops, nops))                                                                 \
	X(int, dwarf_frame_register,                                                          \
	  (Dwarf_Frame *frame, int regno, Dwarf_Op ops_mem[3], Dwarf_Op **ops, size_t *nops), \
	  (frame, regno, ops_mem, ops, nops))                                                 \
	X(int, dwarf_next_cfi,                                                                \
	  (const unsigned char e_ident[], Elf_Data *data, bool eh_frame_p, Dwarf_Off offset,  \
	   Dwarf_Off *next_offset, Dwarf_CFI_Entry *entry),                                   \
	  (e_ident, data, eh_frame_p, offset, next_offset, entry))

/* The table: one pointer per function, filled once. */
#define X_SLOT(ret, name, params, args) ret(*name) params;
static struct {
	ELFUTILS_FUNCS(X_SLOT)
} fn;
#undef X_SLOT

static pthread_once_t once = PTHREAD_ONCE_INIT;

/* What ld.so would have said at start, then its exit status. */
static void die(const char *what, const char *why)
{
	char line[512];
	int n = snprintf(line, sizeof line, "uniprof-flame: %s: %s\n", what, why ? why : "unknown error");
	if (n > 0)
		(void)!write(STDERR_FILENO, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
	_exit(127);
}

static void load(void)
{
	void *lib = dlopen(LIBDW, RTLD_NOW | RTLD_LOCAL);
	if (!lib)
		die("cannot load libdw.so.1 (Debian package libdw1)", dlerror());
	void *p;
#define X_LOOKUP(ret, name, params, args)          \
	if (!(p = dlsym(lib, #name)))              \
		die("cannot load libdw.so.1: " #name, dlerror()); \
	memcpy(&fn.name, &p, sizeof p);
	ELFUTILS_FUNCS(X_LOOKUP)
#undef X_LOOKUP
}

/* The functions themselves: load once, then call through the table. */
#define X_WRAP(ret, name, params, args) \
	ret name params                  \
	{                                \
		pthread_once(&once, load); \
		return fn.name args;       \
	}
ELFUTILS_FUNCS(X_WRAP)
#undef X_WRAP
