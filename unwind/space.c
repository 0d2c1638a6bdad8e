/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * unwind/space.c — an address space: runtime ranges -> (table, bias)
 * (unwind.h, "Address space").
 *
 * Modules are a flat array sorted by start and binary-searched per frame;
 * tables are a flat array owned by the space, shared by every module of
 * the same file (keyed by device and inode, so a library mapped as four
 * segments, or seen again after a maps refresh, is compiled once).
 * Trade-off: a new mapping costs an insertion (memmove) — mappings change
 * rarely, lookups happen per frame.
 *
 * Files named by a process's maps are untrusted: opened only through
 * util/safe-open.h, which vets an O_PATH descriptor (regular file, not on
 * FUSE as root) before any open runs a driver or waits: preferably
 * /proc/PID/map_files (the very file mapped, even when deleted or in
 * another mount namespace), else PATH resolved inside /proc/PID/root
 * (openat2 RESOLVE_IN_ROOT: a symlink cannot leave the target's root).
 *
 * Invariants:
 *  1. Modules are sorted by start and do not overlap (a new mapping
 *     replaces the old ones it overlaps).
 *  2. A module's table index is -1 (no CFI: frame pointers) or valid.
 *  3. At most UNWIND_MAX_MODULES modules; more are ignored.
 *
 * The [vdso] mapping has no file: its image is copied from the target's
 * memory into a memfd once (vdso_fd) and compiled like a file, so walks
 * through __vdso_clock_gettime use its CFI, and code there is a known
 * module, never "outside every mapping" (which would ask the recorder
 * to re-read the maps on every such sample).
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "unwind/unwind.h"
#include "util/safe-open.h"
#include "util/vec.h"

#define MAPS_MAX (64u << 20)   /* bytes of /proc/PID/maps read */

struct module {
	uint64_t start, end, bias;
	int32_t table;             /* index into tables, -1 = none */
};

struct cached {
	dev_t dev;
	ino_t ino;
	struct unwind_table *t;    /* owned; NULL when the file had no usable CFI */
};

struct unwind_space {
	struct module *mods;
	size_t nmods, mods_cap;
	struct cached *tabs;
	size_t ntabs, tabs_cap;
};

static int add_module(struct unwind_space *s, uint64_t start, uint64_t end, uint64_t bias,
		      int32_t table);
static int add_fd(struct unwind_space *s, int fd, uint64_t start, uint64_t end, uint64_t off,
		  int have_off, uint64_t bias);
static int32_t table_for(struct unwind_space *s, int fd, const struct stat *sb);
static int file_bias(int fd, uint64_t start, uint64_t off, uint64_t *bias);
static int known(const struct unwind_space *s, uint64_t start, uint64_t end);
static int open_mapped(pid_t pid, const char *root, uint64_t start, uint64_t end,
		       const char *path);
static int add_maps(struct unwind_space *s, const char *maps, size_t len, pid_t pid,
		    const char *root);
static char *slurp(const char *path, size_t *len);
static int vdso_fd(pid_t pid, uint64_t start, uint64_t end);

struct unwind_space *unwind_space_new(void)
{
	return calloc(1, sizeof(struct unwind_space));
}

void unwind_space_free(struct unwind_space *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->ntabs; i++)
		unwind_table_free(s->tabs[i].t);
	free(s->tabs);
	free(s->mods);
	free(s);
}

int unwind_space_add_file(struct unwind_space *s, uint64_t start, uint64_t end, uint64_t bias,
			  const char *path)
{
	int fd = uf_safe_open(path, NULL);
	if (fd < 0)
		return add_module(s, start, end, bias, -1);
	int rc = add_fd(s, fd, start, end, 0, 0, bias);
	close(fd);
	return rc;
}

int unwind_space_add_table(struct unwind_space *s, uint64_t start, uint64_t end, uint64_t bias,
			   struct unwind_table *t)
{
	if (uf_vec_grow(&s->tabs, &s->tabs_cap, s->ntabs + 1, sizeof *s->tabs) < 0) {
		unwind_table_free(t);
		return -ENOMEM;
	}
	s->tabs[s->ntabs] = (struct cached){ 0, 0, t };
	return add_module(s, start, end, bias, (int32_t)s->ntabs++);
}

int unwind_space_add_pid(struct unwind_space *s, pid_t pid)
{
	char path[64];
	size_t len;
	snprintf(path, sizeof path, "/proc/%d/maps", (int)pid);
	char *text = slurp(path, &len);
	if (!text)
		return -errno;
	int rc = add_maps(s, text, len, pid, NULL);
	free(text);
	return rc;
}

int unwind_space_add_maps(struct unwind_space *s, const char *maps, size_t len,
			  const char *root)
{
	return add_maps(s, maps, len, 0, root ? root : "");
}

const struct unwind_table *unwind_space_find(const struct unwind_space *s, uint64_t addr,
					     uint64_t *bias)
{
	size_t lo = 0, hi = s ? s->nmods : 0;
	while (lo < hi) { /* first module with end > addr */
		size_t mid = lo + (hi - lo) / 2;
		if (s->mods[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	*bias = UINT64_MAX;
	if (lo == (s ? s->nmods : 0) || s->mods[lo].start > addr)
		return NULL;
	*bias = 0;
	if (s->mods[lo].table < 0)
		return NULL;
	*bias = s->mods[lo].bias;
	return s->tabs[s->mods[lo].table].t;
}

void unwind_space_stats(const struct unwind_space *s, size_t *modules, size_t *with_cfi,
			size_t *rows, size_t *bytes)
{
	size_t m = 0, c = 0, r = 0, b = 0;
	for (size_t i = 0; s && i < s->nmods; i++) {
		m++;
		int32_t k = s->mods[i].table;
		c += k >= 0 && s->tabs[k].t && s->tabs[k].t->nrows > 0;
	}
	for (size_t i = 0; s && i < s->ntabs; i++) {
		if (!s->tabs[i].t)
			continue;
		r += s->tabs[i].t->nrows;
		b += s->tabs[i].t->nrows * sizeof(struct unwind_row) + sizeof(struct unwind_table);
	}
	*modules = m;
	*with_cfi = c;
	*rows = r;
	*bytes = b;
}

/* ---- helpers ------------------------------------------------------------- */

/* Every executable file mapping of the maps text not known yet. */
static int add_maps(struct unwind_space *s, const char *maps, size_t len, pid_t pid,
		    const char *root)
{
	const char *p = maps, *end = maps + len;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t ll = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char line[4608], perms[8] = "", path[4096] = "";
		uint64_t start, stop, off;
		if (ll < sizeof line) {
			memcpy(line, p, ll);
			line[ll] = 0;
			if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095[^\n]",
				   &start, &stop, perms, &off, path) == 5 &&
			    perms[2] == 'x' && (path[0] == '/' || !strcmp(path, "[vdso]")) &&
			    start < stop && !known(s, start, stop)) {
				int fd = path[0] == '/' ? open_mapped(pid, root, start, stop, path)
							: vdso_fd(pid, start, stop);
				int rc = fd < 0 ? add_module(s, start, stop, 0, -1)
						: add_fd(s, fd, start, stop, off, 1, 0);
				if (fd >= 0)
					close(fd);
				if (rc < 0)
					return rc;
			}
		}
		p += ll + 1;
	}
	return 0;
}

/* A module for the open file `fd`; with have_off the bias comes from the
 * file's PT_LOAD headers for a mapping of file offset `off` at `start`. */
static int add_fd(struct unwind_space *s, int fd, uint64_t start, uint64_t end, uint64_t off,
		  int have_off, uint64_t bias)
{
	struct stat sb;
	if (fstat(fd, &sb) < 0 || !S_ISREG(sb.st_mode))
		return add_module(s, start, end, bias, -1);
	if (have_off && file_bias(fd, start, off, &bias) < 0)
		return add_module(s, start, end, 0, -1);
	int32_t k = table_for(s, fd, &sb);
	if (k == -2)
		return -ENOMEM;
	return add_module(s, start, end, bias, k);
}

/* Index of the table of the file (built on first sight), -1 when the file
 * has none, -2 on out of memory. */
static int32_t table_for(struct unwind_space *s, int fd, const struct stat *sb)
{
	for (size_t i = 0; i < s->ntabs; i++)
		if (s->tabs[i].t && s->tabs[i].dev == sb->st_dev && s->tabs[i].ino == sb->st_ino)
			return s->tabs[i].t->nrows ? (int32_t)i : -1;
	struct uf_err err = { 0 };
	struct unwind_table *t = unwind_table_open_fd(fd, "mapped file", &err);
	if (!t)
		return -1;
	if (uf_vec_grow(&s->tabs, &s->tabs_cap, s->ntabs + 1, sizeof *s->tabs) < 0) {
		unwind_table_free(t);
		return -2;
	}
	s->tabs[s->ntabs] = (struct cached){ sb->st_dev, sb->st_ino, t };
	s->ntabs++;
	return t->nrows ? (int32_t)(s->ntabs - 1) : -1;
}

/* bias = start - off + p_offset - p_vaddr of the PT_LOAD holding `off`. */
static int file_bias(int fd, uint64_t start, uint64_t off, uint64_t *bias)
{
	elf_version(EV_CURRENT);
	Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	size_t n;
	int rc = -1;
	if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, &n) == 0) {
		for (size_t i = 0; i < n && i < 4096 && rc < 0; i++) {
			GElf_Phdr ph;
			if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
				continue;
			if (off >= ph.p_offset && off - ph.p_offset < (ph.p_filesz ? ph.p_filesz : 1)) {
				*bias = start - off + ph.p_offset - ph.p_vaddr;
				rc = 0;
			}
		}
	}
	if (elf)
		elf_end(elf);
	return rc;
}

/* Inserts a module, replacing the ones it overlaps. */
static int add_module(struct unwind_space *s, uint64_t start, uint64_t end, uint64_t bias,
		      int32_t table)
{
	size_t lo = 0, k;
	while (lo < s->nmods && s->mods[lo].end <= start)
		lo++;
	for (k = lo; k < s->nmods && s->mods[k].start < end; k++)
		;
	if (k == lo && s->nmods >= UNWIND_MAX_MODULES)
		return 0;
	if (k == lo && uf_vec_grow(&s->mods, &s->mods_cap, s->nmods + 1, sizeof *s->mods) < 0)
		return -ENOMEM;
	/* replace mods[lo, k) by one module */
	size_t tail = s->nmods - k;
	memmove(s->mods + lo + 1, s->mods + k, tail * sizeof *s->mods);
	s->nmods = lo + 1 + tail;
	s->mods[lo] = (struct module){ start, end, bias, table };
	return 0;
}

static int known(const struct unwind_space *s, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = s->nmods;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (s->mods[mid].end <= start)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < s->nmods && s->mods[lo].start == start && s->mods[lo].end == end;
}

/* The mapped file, vetted by util/safe-open before anything opens it:
 * for a process the mapped inode (map_files), else PATH inside its root;
 * for maps given as text, PATH inside `root` ("" = ours).  Never blocks,
 * never opens a device; -1 when no regular file is found. */
static int open_mapped(pid_t pid, const char *root, uint64_t start, uint64_t end,
		       const char *path)
{
	if (pid > 0)
		return uf_safe_open_mapped(pid, start, end, path, NULL);
	return uf_safe_open_in_root(root, path, NULL);
}

/* Whole small file (procfs reports size 0, so read until EOF). */
static char *slurp(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	size_t cap = 65536, n = 0;
	char *buf = malloc(cap);
	while (buf) {
		if (n == cap) {
			char *nb = cap < MAPS_MAX ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				free(buf);
				buf = NULL;
				errno = ENOMEM;
				break;
			}
			buf = nb;
			cap *= 2;
		}
		ssize_t r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	*len = n;
	return buf;
}

/* The [vdso] image of process `pid` in an anonymous memory file (the
 * table cache wants a regular file); -1 when it cannot be read (maps
 * given as text: pid 0), and the mapping is then a module without CFI. */
static int vdso_fd(pid_t pid, uint64_t start, uint64_t end)
{
	char path[64];
	if (pid <= 0 || end - start > (1u << 20))
		return -1;
	size_t n = (size_t)(end - start);
	char *img = malloc(n);
	snprintf(path, sizeof path, "/proc/%d/mem", (int)pid);
	int mem = img ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	int fd = mem >= 0 && pread(mem, img, n, (off_t)start) == (ssize_t)n ?
		 memfd_create("vdso", MFD_CLOEXEC) : -1;
	if (fd >= 0 && write(fd, img, n) != (ssize_t)n) {
		close(fd);
		fd = -1;
	}
	if (mem >= 0)
		close(mem);
	free(img);
	return fd;
}
