/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * render/namemap.c — the --cp and --nameattr maps; see namemap.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fold/model/model.h"
#include "render/namemap.h"
#include "util/hash.h"
#include "util/outfile.h"
#include "util/vec.h"

#define NAMEMAP_MAX_LINE (1u << 20)

static long find_slot(const struct namemap *m, const char *name, size_t len, uint32_t **slot);
static int reindex(struct namemap *m, size_t size);
static int entry_cmp(const void *a, const void *b);

int namemap_add(struct namemap *m, const char *name, size_t len, const char *value)
{
	uint32_t *slot;
	char *v = strdup(value);
	if (!v || (2 * (m->n + 1) > m->mask && reindex(m, m->mask ? 2 * (m->mask + 1) : 64))) {
		free(v);
		return -ENOMEM;
	}
	long hit = find_slot(m, name, len, &slot);
	if (hit >= 0) {
		free(m->e[hit].value);
		m->e[hit].value = v;
		return 0;
	}
	char *nm = malloc(len + 1);
	if (!nm || uf_vec_grow(&m->e, &m->cap, m->n + 1, sizeof *m->e)) {
		free(nm);
		free(v);
		return -ENOMEM;
	}
	memcpy(nm, name, len);
	nm[len] = 0;
	m->e[m->n] = (struct namemap_entry){ nm, len, v };
	*slot = (uint32_t)++m->n;
	return 0;
}

const char *namemap_get(const struct namemap *m, const char *name, size_t len)
{
	uint32_t *slot;
	long hit = m->mask ? find_slot(m, name, len, &slot) : -1;
	return hit >= 0 ? m->e[hit].value : NULL;
}

/* Opens path for reading without blocking and accepts a regular file only:
 * the name may come from a shared folder where a FIFO would hang us. */
static FILE *open_regular(const char *path, int *e)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat sb;
	if (fd < 0) {
		*e = errno;
		return NULL;
	}
	FILE *f = NULL;
	if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode))
		*e = S_ISDIR(sb.st_mode) ? EISDIR : EINVAL;
	else if ((f = fdopen(fd, "r")) == NULL)
		*e = errno;
	if (!f)
		close(fd);
	return f;
}

int namemap_load(struct namemap *m, const char *path, const char *sep, int missing_ok,
		 struct uf_err *err)
{
	memset(m, 0, sizeof *m);
	int e = 0;
	FILE *f = open_regular(path, &e);
	if (!f) {
		if (missing_ok && e == ENOENT)
			return 0;
		uf_err_set(err, UF_EINPUT, path, "cannot open: %s",
			   e == EINVAL ? "not a regular file" : UF_STRERROR(e));
		return -e;
	}
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;
	int rc = 0;
	size_t seplen = strlen(sep);
	while (rc == 0 && (n = getline(&line, &cap, f)) >= 0) {
		while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
			line[--n] = 0;
		if ((size_t)n > NAMEMAP_MAX_LINE)
			continue;
		char *s = memmem(line, (size_t)n, sep, seplen);
		if (!s)
			continue;
		*s = 0;
		/* names use folded text's escape ("\xHH" for '\n', ';', ...) */
		size_t nlen = fold_name_unescape(line, line, (size_t)(s - line));
		rc = namemap_add(m, line, nlen, s + seplen);
	}
	free(line);
	fclose(f);
	if (rc)
		uf_err_set(err, UF_EINPUT, path, "out of memory");
	return rc;
}

int namemap_save_palette(struct namemap *m, const char *path, struct uf_err *err)
{
	if (m->n) {
		qsort(m->e, m->n, sizeof *m->e, entry_cmp);
		if (reindex(m, m->mask + 1)) { /* entries moved: the index must follow */
			uf_err_set(err, UF_EINPUT, path, "out of memory");
			return -ENOMEM;
		}
	}
	struct uf_outfile o;
	int rc = uf_outfile_open(&o, path, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < m->n && rc == 0; i++) {
		const struct namemap_entry *x = &m->e[i];
		if (fold_name_needs_escape(x->name, x->len)) { /* a name cannot forge lines */
			char *e = malloc(4 * x->len);
			if (!e) {
				rc = -ENOMEM;
				break;
			}
			fwrite(e, 1, fold_name_escape(e, x->name, x->len), o.fp);
			free(e);
		} else {
			fwrite(x->name, 1, x->len, o.fp);
		}
		fprintf(o.fp, "->%s\n", x->value);
	}
	if (rc) {
		uf_outfile_abort(&o);
		uf_err_set(err, UF_EINPUT, path, "out of memory");
		return rc;
	}
	return uf_outfile_commit(&o, err);
}

void namemap_release(struct namemap *m)
{
	for (size_t i = 0; i < m->n; i++) {
		free(m->e[i].name);
		free(m->e[i].value);
	}
	free(m->e);
	free(m->slots);
	memset(m, 0, sizeof *m);
}

/* ---- static helpers ---------------------------------------------------- */

/* Linear probing.  Returns the index of the entry holding name, or -1
 * with *slot the empty slot where it would go. */
static long find_slot(const struct namemap *m, const char *name, size_t len, uint32_t **slot)
{
	size_t i = uf_hash_mix(uf_hash_bytes(name, len) ^ m->seed, 0x9fb21c651e98df25ull) & m->mask;
	for (;; i = (i + 1) & m->mask) {
		uint32_t s = m->slots[i];
		*slot = &m->slots[i];
		if (s == 0)
			return -1;
		const struct namemap_entry *x = &m->e[s - 1];
		if (x->len == len && memcmp(x->name, name, len) == 0)
			return (long)s - 1;
	}
}

/* Rebuilds the index with `size` slots (a power of two > n; the first
 * call picks the seed). */
static int reindex(struct namemap *m, size_t size)
{
	if (m->n >= UINT32_MAX / 4)
		return -ENOMEM;
	uint32_t *s = calloc(size, sizeof *s);
	if (!s)
		return -ENOMEM;
	if (!m->slots && getrandom(&m->seed, sizeof m->seed, GRND_NONBLOCK) != (ssize_t)sizeof m->seed)
		m->seed = (uint64_t)(uintptr_t)s ^ (uint64_t)getpid() << 32;
	free(m->slots);
	m->slots = s;
	m->mask = size - 1;
	for (size_t k = 0; k < m->n; k++) {
		uint32_t *slot;
		find_slot(m, m->e[k].name, m->e[k].len, &slot);
		*slot = (uint32_t)(k + 1);
	}
	return 0;
}

static int entry_cmp(const void *a, const void *b)
{
	const struct namemap_entry *x = a, *y = b;
	size_t m = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, m);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}
