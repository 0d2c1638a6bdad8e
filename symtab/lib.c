/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/lib.c — the library a code address belongs to (symtab_lib_* in
 * symtab/symtab.h): which Unikraft micro-library, external library or
 * app a frame's code was compiled from.
 *
 * The source: DWARF's compilation unit containing the address (libdw,
 * through symtab/lines.c's handle), whose source path is mapped to a
 * library by the rule table below; without DWARF for the address, the
 * ELF's STT_FILE symbols (a local function follows the STT_FILE of its
 * source file in .symtab); else nothing, and the caller falls back to the
 * mapped file's name (a Linux process's libc.so.6).
 *
 * Trade-off: one rule table over path segments, not a build-system
 * parser: a Unikraft tree is recognised from its directory layout alone
 * (no Makefile.uk read), so a .dbg moved to another machine still maps;
 * a tree laid out otherwise maps to the app.
 *
 * A relative DW_AT_name that maps to the app (a library built by its own
 * sub-make, from its unpacked directory: "src/eval.c" in comp_dir
 * .../build/libNAME/origin/NAME-1.0) is joined to the unit's
 * DW_AT_comp_dir, and the fetched-library rule alone is tried on that
 * (build/libNAME/origin/): the name alone says nothing of the library,
 * and was counted as the app's, while the other rules on a build
 * machine's directory (/home/u/lib/...) would misname the app's code.
 *
 * Invariants:
 *  1. A rule matches at a path-segment boundary (start or after '/'),
 *     its NAME segment is followed by '/' (a directory, not the file).
 *  2. Rules are tried in table order; within a rule the leftmost match
 *     wins, so `libs/musl/src/lib/x.c` is libmusl, not libx.
 *  3. The result is at most SYMTAB_LIB_MAX - 1 bytes of [A-Za-z0-9._+-]
 *     (other bytes become '_'): it is a frame name and a CSS-safe key.
 */
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symtab/symtab.h"
#include "util/safe-open.h"

/* "what precedes NAME" -> library name format.  kind: 0 "lib%s" from the
 * segment after the prefix; 1 "lib%splat"; 2 drivers: the last directory
 * of the path under the prefix. */
static const struct lib_rule {
	const char *prefix;
	int kind;
} rules[] = {
	{ "build/lib", 0 }, /* Unikraft's fetched sources: build/libmusl/origin/...: first, so
			     * that a tarball's own lib/ or libs/ inside origin/ stays its
			     * library's, as does a build dir under a libs/ checkout */
	{ "libs/", 0 },     /* external libraries checked out beside the tree: lwip, musl, newlib */
	{ "lib/", 0 },      /* Unikraft's internal libraries: lib/ukalloc/... */
	{ "plat/", 1 },     /* platforms: plat/kvm/... -> libkvmplat */
	{ "drivers/", 2 },  /* drivers/virtio/net/... -> libnet */
};

struct symtab_libs {
	struct symtab_lines *lines; /* NULL: no DWARF */
	char app[SYMTAB_LIB_MAX];
	struct file_range {         /* STT_FILE fallback: [start, end) -> source file */
		uint64_t start, end;
		char name[64];
	} *fr;
	size_t nfr;
};

static size_t clean_copy(char *buf, size_t size, const char *pre, const char *s, size_t n,
			 const char *post);
static int fetched_lib(const char *path, char *buf, size_t size);
static int load_stt_file(struct symtab_libs *l, const char *path);
static int add_range(struct symtab_libs *l, size_t *cap, uint64_t start, uint64_t size, const char *file);
static int cmp_range(const void *a, const void *b);

size_t symtab_lib_of_source(const char *src, const char *app, char *buf, size_t size)
{
	for (size_t r = 0; r < sizeof rules / sizeof rules[0]; r++) {
		size_t pl = strlen(rules[r].prefix);
		for (const char *p = src; (p = strstr(p, rules[r].prefix)); p++) {
			if (p != src && p[-1] != '/')
				continue;
			const char *name = p + pl, *slash = strchr(name, '/');
			if (!slash || slash == name)
				continue;
			if (rules[r].kind == 2) { /* the driver's own directory: the file's */
				const char *last = strrchr(src, '/'), *d = last;
				while (d > name && d[-1] != '/')
					d--;
				return clean_copy(buf, size, "lib", d, (size_t)(last - d), "");
			}
			return clean_copy(buf, size, "lib", name, (size_t)(slash - name),
					  rules[r].kind == 1 ? "plat" : "");
		}
	}
	return clean_copy(buf, size, "", app, strlen(app), "");
}

struct symtab_libs *symtab_libs_open(const char *path, struct uf_err *err)
{
	struct symtab_libs *l = calloc(1, sizeof *l);
	if (!l) {
		uf_err_set(err, UF_EINPUT, path, "out of memory");
		return NULL;
	}
	struct uf_err e2 = { 0 };
	l->lines = symtab_lines_open(path, &e2);
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	size_t n = strlen(b);
	if (n > 4 && (!strcmp(b + n - 4, ".dbg") || !strcmp(b + n - 4, ".elf")))
		n -= 4; /* app.dbg, app.elf: the app's name */
	clean_copy(l->app, sizeof l->app, "", b, n, "");
	if (!l->lines && load_stt_file(l, path) < 0) {
		symtab_libs_free(l);
		uf_err_set(err, UF_EINPUT, path, "out of memory");
		return NULL;
	}
	return l;
}

size_t symtab_libs_lookup(struct symtab_libs *l, uint64_t addr, char *buf, size_t size)
{
	const char *src = l->lines ? symtab_lines_cu_name(l->lines, addr) : NULL;
	if (src) {
		size_t k = symtab_lib_of_source(src, l->app, buf, size);
		const char *dir = src[0] != '/' && !strcmp(buf, l->app) ?
				  symtab_lines_cu_dir(l->lines, addr) : NULL;
		char path[4096];
		int n = dir ? snprintf(path, sizeof path, "%s/%s", dir, src) : -1;
		if (n > 0 && (size_t)n < sizeof path && fetched_lib(path, buf, size))
			return strlen(buf);
		if (dir)   /* fetched_lib may have written buf */
			k = symtab_lib_of_source(src, l->app, buf, size);
		return k;
	}
	size_t lo = 0, hi = l->nfr;
	while (lo < hi) { /* past the last range starting at or below addr */
		size_t mid = (lo + hi) / 2;
		if (l->fr[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || addr >= l->fr[lo - 1].end)
		return 0;
	return symtab_lib_of_source(l->fr[lo - 1].name, l->app, buf, size);
}

int symtab_libs_inlined(struct symtab_libs *l, uint64_t addr, const char **names, int max)
{
	return l && l->lines ? symtab_lines_inlined(l->lines, addr, names, max) : 0;
}

int symtab_libs_frames(struct symtab_libs *l, uint64_t addr, struct symtab_srcpos *pos,
		       const char **names, int max)
{
	return l && l->lines ? symtab_lines_frames(l->lines, addr, pos, names, max) : 0;
}

void symtab_libs_free(struct symtab_libs *l)
{
	if (!l)
		return;
	symtab_lines_free(l->lines);
	free(l->fr);
	free(l);
}

/* The library of a path in Unikraft's fetched layout, build/libNAME/origin/
 * (the last such, the innermost), into buf: 1, or 0 when none. */
static int fetched_lib(const char *path, char *buf, size_t size)
{
	const char *hit = NULL, *end = NULL;
	for (const char *p = path; (p = strstr(p, "build/lib")); p++) {
		const char *name = p + 9, *slash = strchr(name, '/');
		if ((p == path || p[-1] == '/') && slash && slash > name && !strncmp(slash, "/origin/", 8))
			hit = name, end = slash;
	}
	if (!hit)
		return 0;
	clean_copy(buf, size, "lib", hit, (size_t)(end - hit), "");
	return 1;
}

/* pre + s[0..n) + post, bytes outside [A-Za-z0-9._+-] as '_' (invariant 3). */
static size_t clean_copy(char *buf, size_t size, const char *pre, const char *s, size_t n,
			 const char *post)
{
	size_t k = 0;
	if (!size)
		return 0;
	for (int part = 0; part < 3; part++) {
		const char *p = part == 0 ? pre : part == 1 ? s : post;
		size_t m = part == 1 ? n : strlen(p);
		for (size_t i = 0; i < m && k + 1 < size; i++) {
			char c = p[i];
			int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
				 c == '.' || c == '_' || c == '+' || c == '-';
			buf[k++] = ok ? c : '_';
		}
	}
	buf[k] = 0;
	return k;
}

/* Appends [start, start+size) -> file to l->fr; -1 when out of memory. */
static int add_range(struct symtab_libs *l, size_t *cap, uint64_t start, uint64_t size, const char *file)
{
	if (l->nfr == *cap) {
		size_t nc = *cap ? *cap * 2 : 64;
		void *p = realloc(l->fr, nc * sizeof *l->fr);
		if (!p)
			return -1;
		l->fr = p;
		*cap = nc;
	}
	l->fr[l->nfr].start = start;
	l->fr[l->nfr].end = start + size;
	snprintf(l->fr[l->nfr].name, sizeof l->fr[l->nfr].name, "%s", file);
	l->nfr++;
	return 0;
}

/* STT_FILE fallback: in .symtab, the local FUNC symbols after an STT_FILE
 * come from that file (globals follow all locals and get no file).  A
 * file that cannot be read has no libraries, which is not an error. */
static int load_stt_file(struct symtab_libs *l, const char *path)
{
	int fd = uf_safe_open(path, NULL), rc = 0;   /* regular files only, vetted first */
	if (fd < 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	while (e && (scn = elf_nextscn(e, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB)
			break;
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
	size_t n = d && sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0, cap = 0;
	const char *cur = NULL;
	for (size_t i = 0; i < n && rc == 0; i++) {
		GElf_Sym sym;
		if (!gelf_getsym(d, (int)i, &sym))
			break;
		const char *name = elf_strptr(e, sh.sh_link, sym.st_name);
		if (GELF_ST_TYPE(sym.st_info) == STT_FILE)
			cur = name;
		else if (GELF_ST_TYPE(sym.st_info) == STT_FUNC && GELF_ST_BIND(sym.st_info) == STB_LOCAL &&
			 cur && sym.st_size)
			rc = add_range(l, &cap, sym.st_value, sym.st_size, cur);
	}
	if (l->nfr)
		qsort(l->fr, l->nfr, sizeof *l->fr, cmp_range);
	if (e)
		elf_end(e);
	close(fd);
	return rc;
}

static int cmp_range(const void *a, const void *b)
{
	const struct file_range *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}
