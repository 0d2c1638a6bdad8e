/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/symtab.h — address -> function name, from ELF symbol tables
 * (read through libelf, never by running nm) or from `nm -n` text files,
 * and, for live Linux processes, one table per mapped file with its load
 * bias taken from /proc/PID/maps.
 *
 * A symtab is a flat array of function symbols sorted by address, each
 * with a half-open range [start, end), plus one arena holding every name.
 * A lookup is one binary search (tables over 4096 symbols first narrow it
 * with a bucket index, so a 1M-symbol table costs a few cache misses, not
 * twenty).  The main trade-off: a table is built
 * once, up front (O(n log n)), and is read-only afterwards, so lookups are
 * fast, allocation-free and safe from several threads at once.
 *
 * Which symbols count as functions:
 *   ELF: STT_FUNC and STT_GNU_IFUNC, LOCAL ones included (a Unikraft .dbg
 *   has only local symbols), and STT_NOTYPE symbols with a name in an
 *   executable (SHF_EXECINSTR) section (hand-written assembly).  From
 *   .symtab, or from .dynsym when .symtab is absent or has no function
 *   symbols (a stripped library).  Undefined,
 *   absolute and empty-named symbols are skipped, as are the assembler's
 *   local labels (".L...") and ARM mapping symbols ("$x", "$d", ...).
 *   nm text: lines "ADDR TYPE NAME" (nm -n) or "ADDR SIZE TYPE NAME"
 *   (nm -S); types t T w W (and i for ifunc) are functions; the other
 *   lines only end the previous function.
 *
 * Sizes: a symbol with st_size 0 (and an nm symbol without a size) extends to the next
 * symbol's start, capped by the end of its section (ELF) and by
 * SYMTAB_MAX_GUESS bytes (the last nm symbol, a gap before padding).
 *
 * Aliases (several names at one address): one name is kept, the one
 * perf keeps (choose_best_symbol in tools/perf/util/symbol.c), so frames
 * read as `perf report` names them: (1) a typed function over an untyped
 * label, (2) a sized symbol over one of size 0, (3) non-weak over weak,
 * (4) global over local (so: global, then local, then weak), (5) fewer
 * leading underscores, (6) the longer name (glibc's memmove and memcpy
 * variants share code: __memmove_avx_unaligned_erms, not
 * __memcpy_avx_unaligned_erms), (7) byte order of the name (perf keeps
 * the first in table order here) — so the choice never depends on symbol
 * table order.  Tested by symtab_alias_rule in tests/unit/test-symtab.c.
 *
 * Overlaps: an untyped label inside a sized function is dropped (it is a
 * jump target, not a function); a typed function nested in or
 * overlapping another cuts the earlier one at its start, so every address
 * maps to at most one symbol.
 *
 * Return addresses: the address a frame returns to may lie just past its
 * function's end (a call as the last instruction, e.g. to a noreturn
 * function), so every frame but the first (the sampled PC) is looked up
 * as addr - 1 (symtab_lookup_ret, SYMTAB_RET).
 *
 * Invariants:
 *  1. After open, a table is immutable; names stay valid until
 *     symtab_free() (or symtab_procmap_free() for tables it owns).
 *  2. Entries are sorted by start, non-empty (start < end) and do not
 *     overlap; at most one entry contains any address.
 *  3. Every name is NUL-terminated, at most SYMTAB_MAX_NAME bytes
 *     (longer ones are cut), and lives in the table's arena.
 *  4. A table has at least one symbol: an input without function symbols
 *     is an error ("no function symbols"), never an empty table.
 *  5. Input files are untrusted: a truncated or corrupt ELF or nm file
 *     yields an error or fewer symbols, never a crash or an unbounded
 *     allocation (caps below).
 *
 * Errors: every open fills *err with class UF_EINPUT and `what` = the path
 * (why: "no such file or directory", "not an ELF file", "no function
 * symbols", "truncated ELF file", "corrupt ELF file: <libelf's reason>",
 * "too many symbols", "out of memory") and returns NULL.
 */
#ifndef UF_SYMTAB_H
#define UF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util/err.h"

/* Caps on untrusted input. */
#define SYMTAB_MAX_SYMS (16u * 1024u * 1024u)    /* function symbols per table */
#define SYMTAB_MAX_NAME 4096u                    /* bytes per name; longer ones are cut */
#define SYMTAB_MAX_GUESS (1u * 1024u * 1024u)    /* size given to a symbol with no known end */
#define SYMTAB_MAX_NM_LINE 8192u                 /* bytes per nm line; longer lines are skipped */
#define SYMTAB_MAX_MAPS 65536u                   /* mappings read from /proc/PID/maps */
#define SYMTAB_MAX_FILES 4096u                   /* distinct files loaded for one process */

struct symtab;

/* ---- one table ---------------------------------------------------------- */

/* Opens the ELF file at `path` (borrowed) and returns an owned table (free
 * with symtab_free), or NULL with *err set. */
struct symtab *symtab_open_elf(const char *path, struct uf_err *err);
/* Same from memory: `buf` (borrowed, only during the call) holds `len`
 * bytes of an ELF image; `label` names it in errors. */
struct symtab *symtab_open_elf_mem(const void *buf, size_t len, const char *label,
				   struct uf_err *err);
/* Opens an `nm -n` (or plain `nm`) output file; lines that do not parse
 * are skipped; none at all is "no function symbols". */
struct symtab *symtab_open_nm(const char *path, struct uf_err *err);
/* Same from memory (borrowed); `label` names it in errors. */
struct symtab *symtab_open_nm_mem(const char *buf, size_t len, const char *label,
				  struct uf_err *err);
/* ELF when the file starts with the ELF magic, else nm text. */
struct symtab *symtab_open_auto(const char *path, struct uf_err *err);
void symtab_free(struct symtab *st);

/* Exact lookup: the function containing `addr` (a sampled PC).  Returns
 * its name (borrowed from the table) or NULL when no function contains
 * it; *offset_out (addr - function start) and *len_out (name length) are
 * set when non-NULL and a name is returned. */
const char *symtab_lookup(const struct symtab *st, uint64_t addr, uint64_t *offset_out,
			  size_t *len_out);
/* Return-address lookup: looks up `retaddr - 1` (see the header comment);
 * *offset_out is still relative to `retaddr`. */
const char *symtab_lookup_ret(const struct symtab *st, uint64_t retaddr, uint64_t *offset_out,
			      size_t *len_out);

/* Number of function symbols kept. */
size_t symtab_count(const struct symtab *st);
/* The i-th symbol in address order (i < symtab_count); returns its name
 * and sets *start and *end (exclusive) when non-NULL. */
const char *symtab_symbol(const struct symtab *st, size_t i, uint64_t *start, uint64_t *end);
/* 1 when the ELF file is position-independent (ET_DYN), else 0 (ET_EXEC,
 * nm text). */
int symtab_is_pie(const struct symtab *st);

/* Checks invariants 2-4 above; returns 0 or the number of the broken
 * one.  For tests and fuzzing: O(n). */
int symtab_check(const struct symtab *st);

/* Load bias of a mapping: the file is mapped at virtual address
 * `map_start` from file offset `map_off` (both from /proc/PID/maps).  The
 * PT_LOAD segment containing the offset gives
 *     bias = map_start - map_off + p_offset - p_vaddr
 * so that a runtime address A is symbol address A - bias.  Returns 0 and
 * sets *bias, or -ENOENT when no PT_LOAD segment covers the offset (and
 * for nm tables, which have no program headers). */
int symtab_load_bias(const struct symtab *st, uint64_t map_start, uint64_t map_off,
		     uint64_t *bias);

/* The load bias of a position-independent program from its runtime
 * addresses alone (`n` of them, e.g. a raw trace's, which records no
 * maps): every page-aligned bias that puts one of them inside `_start`
 * or `main` (the frames at the root of nearly every stack) is tried, and
 * the one under which the most addresses (up to 512 sampled) fall in a
 * function wins, if that is at least half of them.  Returns 0 and sets
 * *bias, or -ENOENT.  O(n + 512 * 1024 lookups) at most. */
int symtab_guess_bias(const struct symtab *st, const uint64_t *addrs, size_t n, uint64_t *bias);

/* ---- a Linux process: one table per mapped file ------------------------ */

struct symtab_procmap;

/* Flags for symtab_procmap_lookup. */
#define SYMTAB_RET   1  /* addr is a return address: look up addr - 1 */
#define SYMTAB_ADDRS 2  /* unresolved -> "module+0xOFF" (file offset) instead of "[unknown]" */

/* Reads /proc/PID/maps now and loads the symbols of every executable
 * file mapping (each distinct file once), and of the [vdso] image, read
 * from the process's memory (symtab_vdso_open); anonymous code resolves
 * as unknown.  A PC in [vdso] that no vDSO symbol covers (maps given as
 * text, or code the kernel exports no symbol for, as 6.x kernels' clock
 * code) is named "[vdso]", the DSO, as perf report names it.  `exe_override` (borrowed, may be NULL)
 * is an ELF file used instead of the main executable's mappings (-x); its
 * failures (not ELF, no symbols) are errors (UF_EINPUT, exit 2).  A pid
 * whose maps cannot be read is UF_ETARGET.  Other files that cannot be
 * read or have no symbols are not errors: their addresses resolve as
 * unknown.  Returns an owned map set (free with symtab_procmap_free).
 * Call it while the process is alive (after attach); symbolizing later
 * does not need the process.  Files are read from /proc/PID/root/PATH
 * first, so a target in another mount namespace works.  A file with no
 * .symtab (a stripped distro library) gets its symbols from its separate
 * debug file when one is installed: $UNIPROF_FLAME_DEBUG_DIR (default
 * /usr/lib/debug) /.build-id/xx/yyyy.debug, named by its build-id note. */
struct symtab_procmap *symtab_procmap_open(pid_t pid, const char *exe_override,
					   struct uf_err *err);
/* Same from maps text (borrowed) instead of /proc; the main executable is
 * `exe_path` (the mapping with that path is what -x overrides).  For
 * tests and for maps saved earlier. */
struct symtab_procmap *symtab_procmap_open_text(const char *maps, size_t len,
						const char *exe_path,
						const char *exe_override,
						struct uf_err *err);
/* Re-reads /proc/PID/maps and adds mappings that appeared since (dlopen);
 * files already loaded are not read again.  A mapping that disappeared
 * (dlclose, munmap) is kept unless a new one overlaps it, so samples taken
 * while it was mapped still resolve.  Returns 0 or a negative errno
 * (UF_ETARGET: the process is gone; the map set is then unchanged). */
int symtab_procmap_refresh(struct symtab_procmap *m, pid_t pid, struct uf_err *err);
/* Same from maps text (borrowed). */
int symtab_procmap_refresh_text(struct symtab_procmap *m, const char *maps, size_t len,
				struct uf_err *err);
void symtab_procmap_free(struct symtab_procmap *m);

/* Resolves a runtime address: finds its mapping, subtracts the bias and
 * looks it up in that file's table.  Returns the function name (borrowed
 * from the map set) or, when unresolved, "[vdso]" inside the vDSO and
 * "[unknown]" elsewhere — or, with
 * SYMTAB_ADDRS, "module+0xOFF" (basename of the mapped file and the
 * address's file offset; "0xADDR" when no mapping contains it) formatted
 * into `buf` (`bufsize` bytes; cut to fit).  Never returns NULL.  *len_out
 * gets the length when non-NULL.  Read-only: safe from several threads. */
const char *symtab_procmap_lookup(const struct symtab_procmap *m, uint64_t addr, int flags,
				  char *buf, size_t bufsize, size_t *len_out);
/* Counts for reports: executable mappings, files with symbols. */
void symtab_procmap_stats(const struct symtab_procmap *m, size_t *mappings, size_t *files_ok);
/* Mapped files that could not be read (a FIFO, device or directory where
 * maps names a file, gone, not ELF, on FUSE as root: see procmap.c); the
 * first one's path and reason (borrowed from the map set) when non-NULL. */
size_t symtab_procmap_unreadable(const struct symtab_procmap *m, const char **path,
				 const char **why);

/* ---- the vDSO (symtab/vdso.c) -------------------------------------------- */

/* 1 when a maps path (`len` bytes) names the vDSO ("[vdso]"). */
int symtab_is_vdso(const char *path, size_t len);
/* A copy of the target's memory [start, end) (its [vdso] mapping, at most
 * 1 MiB) read through /proc/PID/mem; owned by the caller (free), *len
 * set.  NULL with errno on failure.  The caller must be allowed to read
 * the target's memory (its tracer).  (unwind/space.c reads the same
 * range itself for the vDSO's CFI: unwind/ does not include symtab/.) */
void *symtab_vdso_read(pid_t pid, uint64_t start, uint64_t end, size_t *len);
/* The vDSO's function symbols, from that copy (elf_memory); NULL with
 * *err ("[vdso]": why).  symtab_procmap_open/refresh call it for the
 * [vdso] mapping once per map set, so vDSO frames are named
 * (__vdso_clock_gettime) with no file opened and no maps re-read. */
struct symtab *symtab_vdso_open(pid_t pid, uint64_t start, uint64_t end, struct uf_err *err);

/* ---- for exports that keep addresses (record's pprof) ------------------ */

/* The mapping containing a runtime address, as /proc/PID/maps gave it. */
struct symtab_mapping {
	uint64_t start, end, off;  /* [start, end) mapped from file offset off */
	uint64_t bias;             /* runtime address - file address */
	int has_bias;
	int is_main;               /* the main executable (what -x overrides) */
	const char *path;          /* borrowed from the map set */
	char build_id[129];        /* GNU build id in hex, "" when none */
};
/* Fills *out for `addr`; returns 0, or -1 when no mapping contains it. */
int symtab_procmap_mapping(const struct symtab_procmap *m, uint64_t addr,
			   struct symtab_mapping *out);
/* The table's GNU build id in hex into buf ("" when none). */
void symtab_build_id_hex(const struct symtab *st, char *buf, size_t size);

/* Source lines from an ELF file's DWARF (.debug_line through libdw), for
 * file:line in exports.  Opened once per file; lookups are by file
 * address.  Trade-off: only files the user names (-x) are read, because
 * the target's own files may be gone when the profile is written. */
struct symtab_lines;
/* Returns an owned handle, or NULL with *err (not a regular file, no
 * DWARF line information). */
struct symtab_lines *symtab_lines_open(const char *path, struct uf_err *err);
/* The source file (borrowed from the handle) and line of `addr`; returns
 * 0, or -1 when DWARF has no line for it. */
int symtab_lines_lookup(struct symtab_lines *l, uint64_t addr, const char **file, int *line);
void symtab_lines_free(struct symtab_lines *l);
/* The source path (DW_AT_name, borrowed from the handle) of the
 * compilation unit containing `addr`; NULL when DWARF has none. */
const char *symtab_lines_cu_name(struct symtab_lines *l, uint64_t addr);
/* Its DW_AT_comp_dir (borrowed), or NULL: where a relative name starts. */
const char *symtab_lines_cu_dir(struct symtab_lines *l, uint64_t addr);
/* The functions inlined at `addr` (DWARF inlined-subroutine scopes), the
 * outermost first, into names[0..max) (borrowed from the handle); returns
 * how many (0: none, or no DWARF there). */
int symtab_lines_inlined(struct symtab_lines *l, uint64_t addr, const char **names, int max);

/* Inlined levels kept per address (deeper chains keep the outer ones). */
#define SYMTAB_MAX_INLINE 16
/* A source position: file (borrowed from the handle, NULL when unknown)
 * and line (0 when unknown). */
struct symtab_srcpos {
	const char *file;
	int line;
};
/* The source positions of the code at `addr`, one per function level,
 * the outermost first: pos[0] lies in the function whose symbol holds
 * addr, pos[k] in the k-th inlined function (names[k-1], as
 * symtab_lines_inlined gives them; names may be NULL).  The innermost
 * level's position is addr's line-table row; each outer level's is the
 * call site (DW_AT_call_file/line) of the level inside it — what perf and
 * pprof show for inlined frames; so pos[0] is always a line of the
 * function the symbol names.  The levels are those `addr2line -f -i`
 * prints: walked from the innermost inlined instance's DIE up its
 * concrete parents (dwarf_getscopes_die), as eu-addr2line -i does, never
 * through an abstract definition's scopes.  With max == 1 only addr's row is looked up
 * (no scope walk): the innermost line, as `addr2line` without -i.
 * Returns the number of levels written (at most max and
 * SYMTAB_MAX_INLINE + 1), 0 when DWARF has no compilation unit there; a
 * level DWARF has no position for has file NULL. */
int symtab_lines_frames(struct symtab_lines *l, uint64_t addr, struct symtab_srcpos *pos,
			const char **names, int max);

/* ---- the library of a frame (symtab/lib.c) ------------------------------ */

/* Bytes of a library name, its NUL included. */
#define SYMTAB_LIB_MAX 64
/* The library of a source path by the rule table in lib.c: Unikraft's
 * fetched build/libNAME/... first, then lib/NAME/ -> libNAME, plat/P/ ->
 * libPplat, drivers/.../NAME/ -> libNAME, libs/NAME/ -> libNAME, else
 * `app`.
 * Writes at most size-1 bytes and a NUL into buf; returns the length. */
size_t symtab_lib_of_source(const char *src, const char *app, char *buf, size_t size);
/* Libraries of one ELF file's code: from its DWARF compilation units, else
 * its STT_FILE symbols.  The app is the file's name without .dbg/.elf.
 * Returns an owned handle (symtab_libs_free); NULL only when out of memory. */
struct symtab_libs;
struct symtab_libs *symtab_libs_open(const char *path, struct uf_err *err);
/* The library of file address `addr` into buf (as symtab_lib_of_source);
 * returns its length, 0 when the file does not say. */
size_t symtab_libs_lookup(struct symtab_libs *l, uint64_t addr, char *buf, size_t size);
void symtab_libs_free(struct symtab_libs *l);
/* symtab_lines_inlined for the file behind l (0 without DWARF). */
int symtab_libs_inlined(struct symtab_libs *l, uint64_t addr, const char **names, int max);
/* symtab_lines_frames for the file behind l (0 without DWARF). */
int symtab_libs_frames(struct symtab_libs *l, uint64_t addr, struct symtab_srcpos *pos,
		       const char **names, int max);

#endif
