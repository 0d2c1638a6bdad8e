/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * record/symbols.c — names, libraries and source positions of sampled
 * addresses, after detach: the resolver, locator and thread namer that
 * sampler_fold() and the pprof writer call.
 *
 * A process's addresses go through its mappings (symtab_procmap); a
 * guest's are the -x image's addresses as they are.  DWARF (inlined
 * functions, lines, the library of a function) is read per mapped file,
 * opened on first use and kept for the run (at most 64 files: past that a
 * file's frames have names but no lines or library).  The main program's
 * DWARF is the -x file when given, else the executable itself.
 *
 * Trade-off: the first lookup in a file pays for reading its DWARF
 * (libdw reads it lazily); only files with sampled frames are opened.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "record/priv.h"

static size_t add_inlined(struct record *r, uint64_t addr, int is_return, char *buf, size_t len,
			  size_t size);
static struct symtab_libs *code_of(struct record *r, uint64_t addr, int is_return, uint64_t *pc);
static struct symtab_libs *libs_for(struct record *r, const char *path);
static void frame_lib(struct record *r, uint64_t addr, int is_return, const char *name, size_t len);

size_t record_thread_name(void *ctx, uint32_t tid, char *buf, size_t size)
{
	struct record *r = ctx;
	return uf_target_thread_name(&r->target, tid, buf, size);
}

size_t record_resolve(void *ctx, uint64_t addr, int is_return, char *buf, size_t size)
{
	struct record *r = ctx;
	const char *name = NULL;
	size_t len = 0;
	if (r->maps) {
		int flags = (is_return ? SYMTAB_RET : 0) | (r->o->addrs ? SYMTAB_ADDRS : 0);
		name = symtab_procmap_lookup(r->maps, addr, flags, buf, size, &len);
	} else if (r->exe_tab) {
		name = is_return ? symtab_lookup_ret(r->exe_tab, addr, NULL, &len)
				 : symtab_lookup(r->exe_tab, addr, NULL, &len);
	}
	if (!name && r->o->addrs) {
		int n = snprintf(buf, size, "0x%" PRIx64, addr);
		return n < 0 ? 0 : (size_t)n < size ? (size_t)n : size - 1;
	}
	if (!name)
		return 0;
	len = len < size ? len : size - 1;
	if (name != buf)
		memmove(buf, name, len);
	if (r->fold_t && (r->o->inline_frames || r->o->lines))
		len = add_inlined(r, addr, is_return, buf, len, size);
	if (r->fold_t)
		frame_lib(r, addr, is_return, buf, len);
	return len;
}

/* The DWARF of a frame's code: the mapped file's (the -x image for the
 * main program and for guests), with *pc its file address (the return
 * address - 1 for callers, less the mapping's bias).  NULL: none. */
static struct symtab_libs *code_of(struct record *r, uint64_t addr, int is_return, uint64_t *pc)
{
	struct symtab_mapping m;
	*pc = is_return && addr ? addr - 1 : addr;
	if (r->maps && symtab_procmap_mapping(r->maps, *pc, &m) == 0 && m.path) {
		*pc = m.has_bias ? *pc - m.bias : *pc;
		return libs_for(r, m.is_main && r->o->exe ? r->o->exe : m.path);
	}
	return !r->maps && r->o->exe ? libs_for(r, r->o->exe) : NULL;
}

/* " FILE:LINE" (the file's base name) for --lines, when DWARF knows it. */
static int line_suffix(const struct symtab_srcpos *p, char *buf, size_t size)
{
	if (!p->file)
		return 0;
	const char *b = strrchr(p->file, '/');
	int k = snprintf(buf, size, " %s:%d", b ? b + 1 : p->file, p->line);
	return k < 0 || (size_t)k >= size ? 0 : k;
}

/* --inline: appends RECORD_INLINE_SEP NAME_[i] for each function DWARF says
 * is inlined at the address, outermost first (the sink's view makes
 * them frames once the trie is folded); --lines: " FILE:LINE" after each
 * level's name (before _[i]), each level's own position (symtab.h). */
static size_t add_inlined(struct record *r, uint64_t addr, int is_return, char *buf, size_t len,
			  size_t size)
{
	uint64_t pc;
	struct symtab_libs *l = code_of(r, addr, is_return, &pc);
	struct symtab_srcpos pos[SYMTAB_MAX_INLINE + 1];
	const char *names[SYMTAB_MAX_INLINE];
	int n = l ? symtab_libs_frames(l, pc, pos, names, SYMTAB_MAX_INLINE + 1) : 0;
	char sfx[300] = "";
	if (!r->o->inline_frames && n > 1)
		n = 1; /* the function's own line: pos[0] */
	if (r->o->lines && n > 0 && pos[0].file) {
		r->lines_found++;
		int k = line_suffix(&pos[0], sfx, sizeof sfx);
		if ((size_t)k < size - len) {
			memcpy(buf + len, sfx, (size_t)k);
			len += (size_t)k;
		}
	}
	for (int i = 0; i + 1 < n; i++) {
		if (!r->o->lines || !line_suffix(&pos[i + 1], sfx, sizeof sfx))
			sfx[0] = 0;
		int k = snprintf(buf + len, size - len, "%c%s%s_[i]", RECORD_INLINE_SEP, names[i], sfx);
		if (k < 0 || (size_t)k >= size - len)
			break; /* what fits: the outer ones */
		len += (size_t)k;
	}
	return len;
}

/* The source position of a frame for its tooltip ("FILE:LINE", the path
 * as DWARF names it): with --inline one per level, joined by
 * RECORD_INLINE_SEP as the name's parts are (the sink's view gives each
 * part its own); else the outermost level's, the line in the function
 * the frame names (for inlined code, the call site of the outermost
 * inlined function, as pprof -noinlines gives it).  0: unknown. */
size_t record_locate(void *ctx, uint64_t addr, int is_return, char *buf, size_t size)
{
	struct record *r = ctx;
	uint64_t pc;
	struct symtab_libs *l = code_of(r, addr, is_return, &pc);
	struct symtab_srcpos pos[SYMTAB_MAX_INLINE + 1];
	int n = l ? symtab_libs_frames(l, pc, pos, NULL, SYMTAB_MAX_INLINE + 1) : 0;
	size_t len = 0;
	if (!r->o->inline_frames && n > 1)
		n = 1;
	int any = 0;
	for (int i = 0; i < n; i++) {
		if (i && len + 1 < size)
			buf[len++] = RECORD_INLINE_SEP;
		int k = pos[i].file ? snprintf(buf + len, size - len, "%s:%d", pos[i].file, pos[i].line) : 0;
		if (k < 0 || (size_t)k >= size - len)
			return 0;
		len += (size_t)k;
		any |= pos[i].file != NULL;
	}
	return any ? len : 0;
}

/* The library handle of a mapped file (opened once; NULL past the cache). */
static struct symtab_libs *libs_for(struct record *r, const char *path)
{
	if (symtab_is_vdso(path, strlen(path)))
		return NULL; /* no file (its symbols came from memory): never open("[vdso]") */
	for (int i = 0; i < r->nlibf; i++)
		if (!strcmp(r->libf[i].path, path))
			return r->libf[i].libs;
	if (r->nlibf == (int)(sizeof r->libf / sizeof r->libf[0]))
		return NULL;
	struct uf_err e2 = { 0 };
	struct lib_file *f = &r->libf[r->nlibf];
	if (!(f->path = strdup(path)))
		return NULL;
	f->libs = symtab_libs_open(path, &e2);
	r->nlibf++;
	return f->libs;
}

/* Records the library of a resolved frame in the trie being filled: from
 * the code's DWARF (or STT_FILE) by symtab's rules; for a process, else
 * the mapped file's name (libc.so.6).  No library is not an error. */
static void frame_lib(struct record *r, uint64_t addr, int is_return, const char *name, size_t len)
{
	char lib[SYMTAB_LIB_MAX];
	size_t ln = 0;
	int strong = 1;  /* may replace the library another function of this name set */
	uint64_t pc = is_return && addr ? addr - 1 : addr;
	struct symtab_mapping m;
	if (r->maps && symtab_procmap_mapping(r->maps, pc, &m) == 0 && m.path) {
		strong = m.is_main; /* ld.so's _start must not take the program's */
		const char *path = m.is_main && r->o->exe ? r->o->exe : m.path;
		struct symtab_libs *l = libs_for(r, path);
		if (l)
			ln = symtab_libs_lookup(l, m.has_bias ? pc - m.bias : pc, lib, sizeof lib);
		if (!ln) {
			const char *b = strrchr(m.path, '/');
			ln = symtab_lib_of_source("", b ? b + 1 : m.path, lib, sizeof lib);
		}
	} else if (!r->maps && r->o->exe) {
		struct symtab_libs *l = libs_for(r, r->o->exe);
		ln = l ? symtab_libs_lookup(l, pc, lib, sizeof lib) : 0;
	}
	/* A library is per name: two functions of one name (static ones in
	 * two files, _start in ld.so and the program) share the first one
	 * set, or the main program's. */
	uint32_t nm = ln ? fold_trie_intern(r->fold_t, name, len) : FOLD_NONE;
	if (nm != FOLD_NONE && (strong || fold_trie_lib(r->fold_t, nm) == FOLD_NONE))
		fold_trie_set_lib(r->fold_t, nm, lib, ln);
}

void record_symbols_release(struct record *r)
{
	for (int i = 0; i < r->nlibf; i++) {
		free(r->libf[i].path);
		symtab_libs_free(r->libf[i].libs);
	}
	r->nlibf = 0;
	free(r->libtab);
	r->libtab = NULL;
}
