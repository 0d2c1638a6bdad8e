/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * util/err.c — the error record helpers behind util/err.h.
 *
 * Out of memory is recognised here, once, by its words (err.h invariant
 * 3) rather than at each allocation site: the sites already all say
 * "out of memory" (or pass libc's ENOMEM text on), so the rule needs no
 * edit of them, and a new site that says it gets the class too.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/err.h"

void uf_err_set(struct uf_err *err, enum uf_err_class cls, const char *what,
		const char *fmt, ...)
{
	if (!err || err->cls != UF_OK)
		return;
	err->cls = cls;
	snprintf(err->what, sizeof err->what, "%s", what ? what : "");
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err->why, sizeof err->why, fmt, ap);
	va_end(ap);
	if (uf_err_is_oom_text(err->why))
		err->cls = UF_ENOMEM;
}

void uf_err_oom(struct uf_err *err, const char *what)
{
	uf_err_set(err, UF_ENOMEM, what, "out of memory");
}

static int ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);
	return n >= m && memcmp(s + n - m, tail, m) == 0;
}

int uf_err_is_oom_text(const char *why)
{
	char enomem[UF_STRERROR_MAX];
	uf_strerror_r(ENOMEM, enomem, sizeof enomem);
	return ends_with(why, "out of memory") || ends_with(why, enomem);
}

void uf_err_clear(struct uf_err *err)
{
	memset(err, 0, sizeof *err);
}

const char *uf_errtext_r(const char *msg, char *buf, size_t n)
{
	if (!n)
		return "";
	snprintf(buf, n, "%s", msg ? msg : "unknown error");
	buf[0] = (char)tolower((unsigned char)buf[0]);
	return buf;
}

/* GNU strerror_r: returns the message, which may or may not be buf. */
const char *uf_strerror_r(int e, char *buf, size_t n)
{
	char tmp[UF_STRERROR_MAX];
	return uf_errtext_r(strerror_r(e, tmp, sizeof tmp), buf, n);
}
