/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * symtab/procmap.c — symbols for a live Linux process: one table per
 * mapped file, each executable mapping with its own load bias, from
 * /proc/PID/maps.
 *
 * Trade-off: every executable file is loaded at open (or refresh) time,
 * while the process is alive and not stopped, so that symbolizing later
 * needs neither the process nor any file I/O; a process mapping hundreds
 * of libraries pays for all of them once.
 *
 * Files named by the target.  /proc/PID/maps is the target's text: a
 * process can map "lib.so (deleted)" and put a FIFO, a device or a
 * symlink out of its root at "lib.so".  So a mapped file is opened by
 * uf_safe_open_mapped (util/safe-open.h): the very inode mapped through
 * /proc/PID/map_files, else the path resolved inside the target's root,
 * vetted through an O_PATH descriptor (regular file, not on FUSE as
 * root) before anything reads it.  Every file that could not be read is
 * counted with its reason for the summary (symtab_procmap_unreadable).
 *
 * Invariants:
 *  1. maps[] is sorted by start and mappings do not overlap (the kernel
 *     guarantees it for one read of maps; we re-sort and drop overlaps
 *     anyway, as the text is input).
 *  2. Each distinct path is loaded once; files[i].st may be NULL (file
 *     unreadable, not ELF) or empty (no symbols): its addresses resolve
 *     as unknown.
 *  3. Lookups never allocate and never return NULL.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symtab/internal.h"
#include "util/safe-open.h"
#include "util/vec.h"

#define MAX_MAPS_BYTES (64u * 1024u * 1024u)
#define NO_FILE UINT32_MAX

struct pm_file {
	const char *path;       /* as in maps, in the arena */
	const char *why;        /* why it could not be read (arena), or NULL */
	struct symtab *st;      /* symbols; NULL when unreadable */
	struct symtab *phdrs;   /* program headers for the bias (may be st) */
	int owned_phdrs;        /* phdrs != st and is ours to free */
	/* st is the file itself, the -x override, or the debug file found
	 * by build-id (then phdrs is the file itself) */
};

struct pm_map {
	uint64_t start, end, off, bias;
	uint32_t file;          /* index in files, NO_FILE for anon (and [vdso] from text) */
	int has_bias;
	const char *mod;        /* basename for SYMTAB_ADDRS, in the arena */
};

struct symtab_procmap {
	struct pm_map *maps;
	size_t nmaps, maps_cap;
	struct pm_file *files;
	size_t nfiles, files_cap;
	struct uf_arena arena;
	const char *exe;             /* main executable path, or NULL */
	struct symtab *override;     /* -x table, or NULL */
	pid_t pid;                   /* 0: read files by plain path */
};

static int parse_maps(struct symtab_procmap *m, const char *text, size_t len);
static int add_line(struct symtab_procmap *m, const char *line, size_t len);
static uint32_t file_for(struct symtab_procmap *m, const char *path, size_t len, uint64_t start,
			 uint64_t end);
static struct symtab *load_file(struct symtab_procmap *m, struct pm_file *f, uint64_t start,
				uint64_t end);
static int open_target_file(const struct symtab_procmap *m, const char *path, uint64_t start,
			    uint64_t end, const char **why);
static struct symtab *load_debug_file(const struct symtab *real);
static int map_cmp(const void *a, const void *b);
static int keep_old(struct symtab_procmap *m, const struct pm_map *prev, size_t nprev);
static char *read_all(const char *path, size_t *len);
static size_t strip_deleted(const char *s, size_t len);

/* ---- public ------------------------------------------------------------ */

struct symtab_procmap *symtab_procmap_open(pid_t pid, const char *exe_override,
					   struct uf_err *err)
{
	char path[64], exe[4096], what[32];
	snprintf(what, sizeof what, "pid %d", (int)pid);
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	size_t len;
	char *text = read_all(path, &len);
	if (!text) {
		uf_err_set(err, UF_ETARGET, what, "cannot read memory maps: %s",
			   errno == ENOENT ? "no such process" : UF_STRERROR(errno));
		return NULL;
	}
	snprintf(path, sizeof path, "/proc/%d/exe", (int)pid);
	ssize_t n = readlink(path, exe, sizeof exe - 1);
	exe[n > 0 ? (size_t)n : 0] = 0;
	exe[strip_deleted(exe, strlen(exe))] = 0;
	struct symtab_procmap *m =
		symtab_procmap_open_text(NULL, 0, exe[0] ? exe : NULL, exe_override, err);
	if (m) {
		m->pid = pid;
		if (parse_maps(m, text, len) < 0) {
			uf_err_set(err, UF_ETARGET, what, "out of memory");
			symtab_procmap_free(m);
			m = NULL;
		}
	}
	free(text);
	return m;
}

struct symtab_procmap *symtab_procmap_open_text(const char *maps, size_t len,
						const char *exe_path,
						const char *exe_override,
						struct uf_err *err)
{
	struct symtab_procmap *m = calloc(1, sizeof *m);
	if (!m) {
		uf_err_set(err, UF_ETARGET, "maps", "out of memory");
		return NULL;
	}
	uf_arena_init(&m->arena);
	if (exe_override && !(m->override = symtab_open_elf(exe_override, err)))
		goto fail;
	if (exe_path && !(m->exe = uf_arena_strndup(&m->arena, exe_path, strlen(exe_path))))
		goto oom;
	if (maps && parse_maps(m, maps, len) < 0)
		goto oom;
	return m;
oom:
	uf_err_set(err, UF_ETARGET, "maps", "out of memory");
fail:
	symtab_procmap_free(m);
	return NULL;
}

int symtab_procmap_refresh(struct symtab_procmap *m, pid_t pid, struct uf_err *err)
{
	char path[64], what[32];
	snprintf(what, sizeof what, "pid %d", (int)pid);
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	size_t len;
	char *text = read_all(path, &len);
	if (!text) {
		int e = errno;
		uf_err_set(err, UF_ETARGET, what, "cannot read memory maps: %s",
			   e == ENOENT ? "no such process" : UF_STRERROR(e));
		return -e;
	}
	int rc = symtab_procmap_refresh_text(m, text, len, err);
	free(text);
	return rc;
}

int symtab_procmap_refresh_text(struct symtab_procmap *m, const char *maps, size_t len,
				struct uf_err *err)
{
	/* files stay cached: only new paths are loaded */
	struct pm_map *prev = m->maps;
	size_t nprev = m->nmaps, prev_cap = m->maps_cap;
	m->maps = NULL;
	m->nmaps = m->maps_cap = 0;
	int rc = parse_maps(m, maps, len);
	if (rc == 0)
		rc = keep_old(m, prev, nprev);
	if (rc < 0) {
		free(m->maps);
		m->maps = prev, m->nmaps = nprev, m->maps_cap = prev_cap;
		uf_err_set(err, UF_ETARGET, "maps", "out of memory");
		return rc;
	}
	free(prev);
	return 0;
}

void symtab_procmap_free(struct symtab_procmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nfiles; i++) {
		if (m->files[i].owned_phdrs)
			symtab_free(m->files[i].phdrs);
		if (m->files[i].st != m->override)
			symtab_free(m->files[i].st);
	}
	symtab_free(m->override);
	free(m->files);
	free(m->maps);
	uf_arena_release(&m->arena);
	free(m);
}

static const struct pm_map *find_map(const struct symtab_procmap *m, uint64_t a)
{
	size_t lo = 0, hi = m->nmaps;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (m->maps[mid].start <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || a >= m->maps[lo - 1].end)
		return NULL;
	return &m->maps[lo - 1];
}

const char *symtab_procmap_lookup(const struct symtab_procmap *m, uint64_t addr, int flags,
				  char *buf, size_t bufsize, size_t *len_out)
{
	uint64_t a = (flags & SYMTAB_RET) && addr ? addr - 1 : addr;
	const struct pm_map *mp = find_map(m, a);
	const char *name = NULL;
	size_t len = 0;
	if (mp && mp->file != NO_FILE && mp->has_bias && m->files[mp->file].st)
		name = symtab_lookup(m->files[mp->file].st, a - mp->bias, NULL, &len);
	if (!name && (flags & SYMTAB_ADDRS) && buf && bufsize) {
		int n = mp ? snprintf(buf, bufsize, "%s+0x%" PRIx64, mp->mod,
				      addr - mp->start + mp->off)
			   : snprintf(buf, bufsize, "0x%" PRIx64, addr);
		name = buf;
		len = n < 0 ? 0 : (size_t)n < bufsize ? (size_t)n : bufsize - 1;
	}
	if (!name && mp && symtab_is_vdso(mp->mod, strlen(mp->mod))) {
		name = "[vdso]"; /* code the vDSO exports no symbol for: name the DSO, as perf does */
		len = 6;
	}
	if (!name) {
		name = "[unknown]";
		len = 9;
	}
	if (len_out)
		*len_out = len;
	return name;
}

void symtab_procmap_stats(const struct symtab_procmap *m, size_t *mappings, size_t *files_ok)
{
	size_t ok = 0;
	for (size_t i = 0; i < m->nfiles; i++)
		ok += m->files[i].st && m->files[i].st->n > 0;
	if (mappings)
		*mappings = m->nmaps;
	if (files_ok)
		*files_ok = ok;
}

size_t symtab_procmap_unreadable(const struct symtab_procmap *m, const char **path,
				  const char **why)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nfiles; i++) {
		if (!m->files[i].why)
			continue;
		if (n++ == 0 && path)
			*path = m->files[i].path;
		if (n == 1 && why)
			*why = m->files[i].why;
	}
	return n;
}

/* ---- static helpers ---------------------------------------------------- */

static int parse_maps(struct symtab_procmap *m, const char *text, size_t len)
{
	for (size_t pos = 0; pos < len;) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t ll = nl ? (size_t)(nl - (text + pos)) : len - pos;
		if (m->nmaps < SYMTAB_MAX_MAPS && add_line(m, text + pos, ll) < 0)
			return -ENOMEM;
		pos += ll + 1;
	}
	if (m->nmaps > 1)
		qsort(m->maps, m->nmaps, sizeof *m->maps, map_cmp);
	size_t n = 0; /* drop overlaps: keep the lower mapping */
	for (size_t i = 0; i < m->nmaps; i++)
		if (n == 0 || m->maps[i].start >= m->maps[n - 1].end)
			m->maps[n++] = m->maps[i];
	m->nmaps = n;
	return 0;
}

/* "start-end perms offset dev inode   path"; only executable mappings. */
static int add_line(struct symtab_procmap *m, const char *line, size_t len)
{
	char buf[4352], perms[8];
	if (len >= sizeof buf)
		return 0;
	memcpy(buf, line, len);
	buf[len] = 0;
	unsigned long long start, end, off, inode;
	int at = -1;
	if (sscanf(buf, "%llx-%llx %7s %llx %*s %llu %n", &start, &end, perms, &off, &inode, &at) < 5
	    || at < 0 || start >= end || strlen(perms) < 3 || perms[2] != 'x')
		return 0;
	const char *path = buf + at;
	size_t plen = strip_deleted(path, strlen(path));
	if (uf_vec_grow(&m->maps, &m->maps_cap, m->nmaps + 1, sizeof *m->maps))
		return -ENOMEM;
	struct pm_map *mp = &m->maps[m->nmaps];
	memset(mp, 0, sizeof *mp);
	mp->start = start, mp->end = end, mp->off = off;
	mp->file = NO_FILE;
	const char *slash = plen ? memrchr(path, '/', plen) : NULL;
	const char *base = slash ? slash + 1 : plen ? path : "[anon]";
	size_t blen = plen ? plen - (size_t)(base - path) : 6;
	if (!(mp->mod = uf_arena_strndup(&m->arena, base, blen)))
		return -ENOMEM;
	if (plen && (path[0] == '/' || (m->pid && symtab_is_vdso(path, plen)))) {
		mp->file = file_for(m, path, plen, start, end);
		if (mp->file == NO_FILE - 1)
			return -ENOMEM;
		const struct pm_file *f = mp->file != NO_FILE ? &m->files[mp->file] : NULL;
		if (f && f->phdrs)
			mp->has_bias = symtab_load_bias(f->phdrs, start, off, &mp->bias) == 0;
	}
	m->nmaps++;
	return 0;
}

/* Refresh: a mapping gone since the last read (dlclose, munmap) is kept
 * unless something new overlaps it, so samples taken while it was mapped
 * still resolve. */
static int keep_old(struct symtab_procmap *m, const struct pm_map *prev, size_t nprev)
{
	size_t nnew = m->nmaps;
	for (size_t i = 0; i < nprev && m->nmaps < SYMTAB_MAX_MAPS; i++) {
		const struct pm_map *o = &prev[i];
		size_t lo = 0, hi = nnew; /* new mappings starting before o's end */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->maps[mid].start < o->end)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo > 0 && m->maps[lo - 1].end > o->start)
			continue;
		if (uf_vec_grow(&m->maps, &m->maps_cap, m->nmaps + 1, sizeof *m->maps))
			return -ENOMEM;
		m->maps[m->nmaps++] = *o;
	}
	if (m->nmaps > 1)
		qsort(m->maps, m->nmaps, sizeof *m->maps, map_cmp);
	return 0;
}

/* Index of the file entry for `path`, loading it on first sight; NO_FILE
 * past SYMTAB_MAX_FILES, NO_FILE - 1 when out of memory. */
static uint32_t file_for(struct symtab_procmap *m, const char *path, size_t len, uint64_t start,
			 uint64_t end)
{
	for (size_t i = 0; i < m->nfiles; i++)
		if (strlen(m->files[i].path) == len && memcmp(m->files[i].path, path, len) == 0)
			return (uint32_t)i;
	if (m->nfiles >= SYMTAB_MAX_FILES)
		return NO_FILE;
	if (uf_vec_grow(&m->files, &m->files_cap, m->nfiles + 1, sizeof *m->files))
		return NO_FILE - 1;
	struct pm_file *f = &m->files[m->nfiles];
	memset(f, 0, sizeof *f);
	if (!(f->path = uf_arena_strndup(&m->arena, path, len)))
		return NO_FILE - 1;
	struct symtab *real = load_file(m, f, start, end);
	if (m->override && m->exe && strcmp(m->exe, f->path) == 0) {
		/* -x: its symbols; the bias from the mapped file when readable
		 * (a .dbg file's program headers may not match the mapping) */
		f->st = m->override;
		f->phdrs = real && real->nsegs ? real : m->override;
		f->owned_phdrs = f->phdrs == real;
		if (!f->owned_phdrs)
			symtab_free(real);
	} else {
		struct symtab *dbg = real ? load_debug_file(real) : NULL;
		f->st = dbg ? dbg : real;
		f->phdrs = real;
		f->owned_phdrs = dbg != NULL;
	}
	return (uint32_t)m->nfiles++;
}

/* The separate debug file named by the build-id, when the file itself
 * has only .dynsym or nothing: DEBUG_DIR/.build-id/xx/yyyy.debug. */
static struct symtab *load_debug_file(const struct symtab *real)
{
	if (!real->build_id_len || !(real->n == 0 || real->from_dynsym))
		return NULL;
	const char *root = getenv("UNIPROF_FLAME_DEBUG_DIR");
	char path[4400], hex[2 * sizeof real->build_id + 1];
	for (size_t i = 0; i < real->build_id_len; i++)
		snprintf(hex + 2 * i, 3, "%02x", real->build_id[i]);
	snprintf(path, sizeof path, "%s/.build-id/%.2s/%s.debug", root && *root ? root : "/usr/lib/debug",
		 hex, hex + 2);
	struct uf_err ignored = {0};
	struct symtab *dbg = symtab_elf_load(path, 0, &ignored);
	if (dbg && dbg->from_dynsym) { /* not better than what we have */
		symtab_free(dbg);
		dbg = NULL;
	}
	return dbg;
}

/* Loads a mapped file as the target sees it (see the header comment);
 * NULL, with f->why set, when it is not a readable regular ELF file. */
static struct symtab *load_file(struct symtab_procmap *m, struct pm_file *f, uint64_t start,
				uint64_t end)
{
	struct uf_err err = { 0 };
	const char *why = NULL;
	struct symtab *st = NULL;
	if (m->pid && symtab_is_vdso(f->path, strlen(f->path))) { /* no file: its memory */
		st = symtab_vdso_open(m->pid, start, end, &err);
		why = st ? NULL : err.why;
	}
	int fd = st || why ? -1 : open_target_file(m, f->path, start, end, &why);
	if (fd >= 0) {
		st = symtab_elf_load_fd(fd, f->path, 1, &err);
		close(fd);
		why = st ? NULL : err.why;
	}
	if (why && !(f->why = uf_arena_strndup(&m->arena, why, strlen(why))))
		f->why = "out of memory";
	return st;
}

/* A readable descriptor of the mapped file (util/safe-open.h): the
 * mapped inode or the path inside the target's root for a process; the
 * plain path for maps given as text (pid 0).  -1 with *why. */
static int open_target_file(const struct symtab_procmap *m, const char *path, uint64_t start,
			    uint64_t end, const char **why)
{
	return m->pid > 0 ? uf_safe_open_mapped(m->pid, start, end, path, why)
			  : uf_safe_open(path, why);
}

static int map_cmp(const void *a, const void *b)
{
	const struct pm_map *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

/* Reads a whole (proc) file, at most MAX_MAPS_BYTES; NULL with errno. */
static char *read_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (uf_vec_grow(&buf, &cap, n + 65536, 1) || n >= MAX_MAPS_BYTES) {
			errno = ENOMEM;
			break;
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got == 0) {
				close(fd);
				*len = n;
				return buf;
			}
			break;
		}
		n += (size_t)got;
	}
	int e = errno;
	close(fd);
	free(buf);
	errno = e;
	return NULL;
}

/* Length of a maps or readlink path without the kernel's " (deleted)". */
static size_t strip_deleted(const char *s, size_t len)
{
	static const char tag[] = " (deleted)";
	size_t t = sizeof tag - 1;
	while (len && (s[len - 1] == ' ' || s[len - 1] == '\t'))
		len--;
	if (len >= t && memcmp(s + len - t, tag, t) == 0)
		len -= t;
	return len;
}

/* ---- mappings for exports ---------------------------------------------- */

int symtab_procmap_mapping(const struct symtab_procmap *m, uint64_t addr,
			   struct symtab_mapping *out)
{
	const struct pm_map *mp = find_map(m, addr);
	if (!mp)
		return -1;
	const struct pm_file *f = mp->file != NO_FILE ? &m->files[mp->file] : NULL;
	out->start = mp->start;
	out->end = mp->end;
	out->off = mp->off;
	out->bias = mp->bias;
	out->has_bias = mp->has_bias;
	out->path = f ? f->path : mp->mod;
	out->is_main = f && m->exe && strcmp(m->exe, f->path) == 0;
	/* the build id of the mapped file itself (phdrs), not of a debug file */
	const struct symtab *st = f ? (f->phdrs ? f->phdrs : f->st) : NULL;
	out->build_id[0] = 0;
	if (st)
		symtab_build_id_hex(st, out->build_id, sizeof out->build_id);
	return 0;
}
