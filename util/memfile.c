/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/memfile.c — see util/memfile.h: a FILE over a growable buffer
 * (glibc's fopencookie; writes larger than stdio's buffer reach
 * mem_write whole, so the bytes are copied once).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/memfile.h"

#define MEMFILE_MIN 4096u

/* Room for `need` bytes and a NUL: at least double, by realloc (a big
 * block is remapped, not copied). */
static int mem_grow(struct uf_memfile *m, size_t need)
{
	size_t cap = m->cap > SIZE_MAX / 2 ? SIZE_MAX - 1 : m->cap * 2;
	if (cap < need)
		cap = need;
	if (cap == SIZE_MAX)
		return -ENOMEM;
	char *p = realloc(m->buf, cap + 1);
	if (!p)
		return -ENOMEM;
	m->buf = p;
	m->cap = cap;
	return 0;
}

static ssize_t mem_write(void *cookie, const char *s, size_t n)
{
	struct uf_memfile *m = cookie;
	if (n > SIZE_MAX - 1 - m->len || (m->len + n > m->cap && mem_grow(m, m->len + n))) {
		errno = ENOMEM;
		return -1; /* stdio marks the stream in error */
	}
	memcpy(m->buf + m->len, s, n);
	m->len += n;
	m->buf[m->len] = 0;
	return (ssize_t)n;
}

/* Only where the end is (ftell): the bytes are written in order. */
static int mem_seek(void *cookie, off64_t *off, int whence)
{
	struct uf_memfile *m = cookie;
	if (*off != 0 || (whence != SEEK_CUR && whence != SEEK_END)) {
		errno = EINVAL;
		return -1;
	}
	*off = (off64_t)m->len;
	return 0;
}

FILE *uf_memfile_open(struct uf_memfile *m, size_t reserve)
{
	m->len = 0;
	m->cap = reserve > MEMFILE_MIN ? reserve : MEMFILE_MIN;
	if (!(m->buf = malloc(m->cap + 1)))
		return NULL;
	m->buf[0] = 0;
	cookie_io_functions_t io = { .write = mem_write, .seek = mem_seek };
	FILE *f = fopencookie(m, "w", io);
	if (!f) {
		free(m->buf);
		m->buf = NULL;
	}
	return f;
}
