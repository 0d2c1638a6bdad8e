/*
 * render/namemap.c — the --cp and --nameattr maps; see namemap.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/namemap.h"
#include "util/outfile.h"
#include "util/vec.h"

#define NAMEMAP_MAX_LINE (1u << 20)

static int entry_cmp(const void *a, const void *b)
{
	const struct namemap_entry *x = a, *y = b;
	size_t m = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->name, y->name, m);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

int namemap_add(struct namemap *m, const char *name, size_t len, const char *value)
{
	if (uf_vec_grow(&m->e, &m->cap, m->n + 1, sizeof *m->e))
		return -ENOMEM;
	char *nm = malloc(len + 1), *v = strdup(value);
	if (!nm || !v) {
		free(nm);
		free(v);
		return -ENOMEM;
	}
	memcpy(nm, name, len);
	nm[len] = 0;
	m->e[m->n++] = (struct namemap_entry){ nm, len, v };
	if (m->n - m->sorted > 16 + m->sorted) { /* amortized: keep lookups logarithmic */
		qsort(m->e, m->n, sizeof *m->e, entry_cmp);
		m->sorted = m->n;
	}
	return 0;
}

const char *namemap_get(const struct namemap *m, const char *name, size_t len)
{
	struct namemap_entry key = { (char *)name, len, NULL };
	struct namemap_entry *hit =
		m->sorted ? bsearch(&key, m->e, m->sorted, sizeof *m->e, entry_cmp) : NULL;
	if (hit)
		return hit->value;
	for (size_t i = m->sorted; i < m->n; i++)
		if (m->e[i].len == len && memcmp(m->e[i].name, name, len) == 0)
			return m->e[i].value;
	return NULL;
}

int namemap_load(struct namemap *m, const char *path, const char *sep, int missing_ok,
		 struct uf_err *err)
{
	memset(m, 0, sizeof *m);
	FILE *f = fopen(path, "r");
	if (!f) {
		if (missing_ok && errno == ENOENT)
			return 0;
		uf_err_set(err, UF_EINPUT, path, "cannot open: %s", strerror(errno));
		return -errno;
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
		rc = namemap_add(m, line, (size_t)(s - line), s + seplen);
	}
	free(line);
	fclose(f);
	if (rc) {
		uf_err_set(err, UF_EINPUT, path, "out of memory");
		return rc;
	}
	qsort(m->e, m->n, sizeof *m->e, entry_cmp);
	m->sorted = m->n;
	return 0;
}

int namemap_save_palette(struct namemap *m, const char *path, struct uf_err *err)
{
	qsort(m->e, m->n, sizeof *m->e, entry_cmp);
	m->sorted = m->n;
	struct uf_outfile o;
	int rc = uf_outfile_open(&o, path, err);
	if (rc)
		return rc;
	for (size_t i = 0; i < m->n; i++) {
		if (i > 0 && entry_cmp(&m->e[i - 1], &m->e[i]) == 0)
			continue;
		fwrite(m->e[i].name, 1, m->e[i].len, o.fp);
		fprintf(o.fp, "->%s\n", m->e[i].value);
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
	memset(m, 0, sizeof *m);
}
